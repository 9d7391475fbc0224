import type { RunTree } from './run-tree';
import { buildWaterfall, formatDuration } from './waterfall';

/** The run's timeline: one bar per request and Call, indented by depth, placed by event times. */
export function WaterfallView(props: {
  tree: RunTree;
  now: number;
  onSelect: (key: string) => void;
}) {
  const waterfall = buildWaterfall(props.tree, props.now);
  return (
    <div className="waterfall" data-testid="waterfall">
      <div className="waterfall-axis">
        <span>0</span>
        <span>{formatDuration(waterfall.totalMs)}</span>
      </div>
      {waterfall.bars.map((bar) => (
        <div className="waterfall-row" key={bar.key}>
          <button
            type="button"
            className="waterfall-label"
            style={{ paddingLeft: `${bar.depth * 0.75}rem` }}
            onClick={() => props.onSelect(bar.key)}
            title={bar.label}
          >
            {bar.label}
          </button>
          <div className="waterfall-track">
            <div
              className={`waterfall-bar ${bar.kind} ${bar.status}`}
              data-testid="waterfall-bar"
              data-kind={bar.kind}
              style={{ left: `${bar.leftPercent}%`, width: `${bar.widthPercent}%` }}
              title={`${bar.label}: ${formatDuration(bar.durationMs)} from ${formatDuration(bar.startMs)}`}
            />
          </div>
          <span className="waterfall-duration">{formatDuration(bar.durationMs)}</span>
        </div>
      ))}
    </div>
  );
}

/**
 * The trip example as a `--config` module, in TypeScript: `npx ideact dev --config ideact.config.ts`
 * (or `ideact mcp serve --config …`) loads it with tsx (or jiti) from the project — no build step.
 */
import type { IdeactConfig } from 'ideact';
import { PlanTrip, TripActivities } from './tools';

const config: IdeactConfig = { tools: [PlanTrip], activities: [TripActivities] };

export default config;

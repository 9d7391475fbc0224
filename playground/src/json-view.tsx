/** A JSON value, pretty-printed (params, outputs, schemas). */
export function JsonView(props: { value: unknown; testId?: string }) {
  const text =
    props.value === undefined ? 'undefined' : (JSON.stringify(props.value, null, 2) ?? 'undefined');
  return (
    <pre className="json" data-testid={props.testId}>
      {text}
    </pre>
  );
}

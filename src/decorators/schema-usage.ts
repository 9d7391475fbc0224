/**
 * Who asked for a class's schema (`@Tool` on `WeatherReport`, `@Output` on `Summarize`), so that
 * errors name the decorator and class the user wrote. @internal
 */
export interface SchemaUsage {
  decorator: string;
  target: string;
}

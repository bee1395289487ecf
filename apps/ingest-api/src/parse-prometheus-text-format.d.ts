// Types of parse-prometheus-text-format (it ships none), as far as the metrics feed's test reads it.
declare module "parse-prometheus-text-format" {
  export type ParsedFamily = {
    name: string;
    help: string;
    type: string;
    metrics: { value: string; labels?: Record<string, string>; timestamp_ms?: string }[];
  };
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}

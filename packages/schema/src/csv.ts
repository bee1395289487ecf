/**
 * The one CSV writer of every download: GET /v1/bundles?format=csv, a scenario's figures.csv and the
 * charts' CSV export. Labels, titles, cluster names and params are text someone uploaded; a cell
 * beginning with =, +, -, @, a tab or a carriage return is run as a formula by spreadsheets (CSV
 * injection), so such text gets a leading single quote, as OWASP's CSV-injection advice says. Numbers
 * are written as numbers: -3.5 stays -3.5, and so does the text of one plain number.
 *
 * csv-stringify's browser build: its Node build needs Buffer, and the charts export in the browser.
 */
import { stringify } from "csv-stringify/browser/esm/sync";

export type CsvCell = string | number | boolean | bigint | Date | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Text as a spreadsheet will read it as text: a formula-like start is neutralised with a quote. */
export function csvText(text: string): string {
  return formulaStart.test(text) && !plainNumber.test(text) ? `'${text}` : text;
}

/** Rows (the first one usually the header) as CSV text; dates as ISO 8601, empty for null. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(rows as CsvCell[][], {
    cast: { string: csvText, date: (date) => date.toISOString(), boolean: (b) => String(b) },
  });
}

// One collator for every sort: localeCompare with options builds a new one per comparison, which
// made sorting a thousand figures take a tenth of a second.
export const natural = new Intl.Collator("en", { numeric: true }).compare;

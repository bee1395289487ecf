/** Joins class names, leaving out the empty and the absent: `cx("a", on && "b", props.className)`. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}

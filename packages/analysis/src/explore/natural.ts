// The collator is format.ts's, the one every sort of words uses; facets.ts and figure-groups.ts
// import it from here.
export { natural } from "@cnibench/format";

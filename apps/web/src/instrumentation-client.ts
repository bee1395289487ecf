// Runs before React hydrates any page (Next.js's instrumentation-client convention), so the reader's
// first interaction counts from the first page they open: charts load their code at it
// (_charts/deferred.tsx). A listener added by a page's own modules came too late — they run during
// hydration, and a move made while it was under way loaded nothing until the next one. A page with
// charts reached later by a link inside the app renders them in the browser, its click already
// counted.
import { whenInteractive } from "@cnibench/charts/interactive";

void whenInteractive();

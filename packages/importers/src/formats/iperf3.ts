/**
 * `iperf3 -J` output. TCP: the receiver's sum (end.sum_received, goodput) is tcp.throughput and the
 * sender's (end.sum_sent) is kept apart as x.tcp.throughput.sent. UDP likewise: a headline means what
 * arrived, so the receiver's rate (end.sum_received) is udp.throughput — what collectors such as
 * InfraBuilder's bench.sh publish — the sender's x.udp.throughput.sent, and the loss udp.loss. iperf
 * 3.1.x wrote only end.sum for UDP: its bits_per_second is bytes sent over the sender's time
 * (iperf_api.c, "Summary sum, UDP"), a sender rate, so such a file has no udp.throughput.
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { at, finite, isObject, isoFromEpochSeconds, type Json, parseJson } from "../util.ts";

export function looksLikeIperf3(doc: unknown): boolean {
  return (
    isObject(doc) &&
    isObject(doc.start) &&
    (typeof at(doc, "start.version") === "string" || isObject(at(doc, "start.test_start"))) &&
    ("end" in doc || "intervals" in doc || "error" in doc)
  );
}

export function parseIperf3(text: string): ParsedRun {
  const doc = parseJson(text, "iperf3 JSON");
  return iperf3FromJson(doc);
}

export function iperf3FromJson(doc: unknown, extraParams: Params = {}): ParsedRun {
  if (!looksLikeIperf3(doc)) throw new ImportError("not iperf3 -J output: no start.version or start.test_start");
  const d = doc as Json;
  if (typeof d.error === "string" && d.error !== "") throw new ImportError(`iperf3 reported an error: ${d.error}`);
  if (!isObject(d.end) || Object.keys(d.end).length === 0) {
    throw new ImportError("iperf3 output has no end section (end): the test did not finish");
  }
  const protocol = String(at(d, "start.test_start.protocol") ?? "TCP").toUpperCase();
  const streams = finite(at(d, "start.test_start.num_streams"));
  const params: Params = { ...(streams !== undefined ? { streams } : {}), ...extraParams };
  if (at(d, "start.test_start.reverse") === 1) params.reverse = true;
  const results: Result[] = [];
  const skipped: string[] = [];

  if (protocol === "TCP") {
    const received = finite(at(d, "end.sum_received.bits_per_second"));
    if (received === undefined) throw new ImportError("iperf3 TCP output without end.sum_received.bits_per_second");
    results.push({
      metric: "tcp.throughput",
      value: received,
      unit: "bit/s",
      params,
      note: "iperf3 end.sum_received.bits_per_second (receiver)",
    });
    const sent = finite(at(d, "end.sum_sent.bits_per_second"));
    if (sent !== undefined) {
      results.push({
        metric: "x.tcp.throughput.sent",
        value: sent,
        unit: "bit/s",
        better: "higher",
        params,
        note: "iperf3 end.sum_sent.bits_per_second (sender)",
      });
    }
    const retransmits = finite(at(d, "end.sum_sent.retransmits"));
    if (retransmits !== undefined) {
      results.push({ metric: "x.tcp.retransmits", value: retransmits, unit: "count", better: "lower", params });
    }
  } else if (protocol === "UDP") {
    const modern = isObject(at(d, "end.sum_sent")) && isObject(at(d, "end.sum_received"));
    const senderPath = modern ? "end.sum_sent" : "end.sum";
    const receiverPath = modern ? "end.sum_received" : "end.sum";
    const sender = finite(at(d, `${senderPath}.bits_per_second`));
    if (sender === undefined) throw new ImportError(`iperf3 UDP output without ${senderPath}.bits_per_second`);
    if (modern) {
      const received = finite(at(d, "end.sum_received.bits_per_second"));
      if (received === undefined) throw new ImportError("iperf3 UDP output without end.sum_received.bits_per_second");
      results.push({
        metric: "udp.throughput",
        value: received,
        unit: "bit/s",
        params,
        note: "iperf3 end.sum_received.bits_per_second (receiver: what arrived)",
      });
    } else {
      skipped.push(
        "end.sum only (older iperf3 UDP layout): no receiver rate, so no udp.throughput (only the sender's)",
      );
    }
    results.push({
      metric: "x.udp.throughput.sent",
      value: sender,
      unit: "bit/s",
      better: "higher",
      params,
      note: `iperf3 ${senderPath}.bits_per_second (sender)`,
    });
    const loss = finite(at(d, `${receiverPath}.lost_percent`));
    if (loss !== undefined) {
      results.push({ metric: "udp.loss", value: loss, unit: "%", params, note: `iperf3 ${receiverPath}.lost_percent` });
    }
    const jitter = finite(at(d, `${receiverPath}.jitter_ms`));
    if (jitter !== undefined) {
      results.push({ metric: "x.udp.jitter", value: jitter, unit: "ms", better: "lower", params });
    }
  } else {
    throw new ImportError(`iperf3 protocol "${protocol}" (start.test_start.protocol) is not TCP or UDP`);
  }

  const version = String(at(d, "start.version") ?? "").replace(/^iperf\s+/, "");
  const timesecs = finite(at(d, "start.timestamp.timesecs"));
  const runAt = timesecs === undefined ? undefined : isoFromEpochSeconds(timesecs);
  if (timesecs !== undefined && runAt === undefined) {
    skipped.push(
      `start.timestamp.timesecs ${timesecs} is not a time between years 1 and 9999, so the run time is not known`,
    );
  }
  return {
    results,
    derived: { kernel: kernelFromUname(at(d, "start.system_info")) },
    collector: { name: "iperf3", ...(version ? { version } : {}) },
    ...(runAt !== undefined ? { runAt } : {}),
    skipped,
  };
}

/** `uname -a` ("Linux host 5.4.104+ #1 SMP …") → "5.4.104+"; the client's node kernel. */
export function kernelFromUname(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const parts = value.trim().split(/\s+/);
  return parts[0] === "Linux" && parts[2] ? parts[2] : undefined;
}

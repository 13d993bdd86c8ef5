/**
 * Issue 25's last standard: "Memory stays bounded while exporting 1,000 orders (measured in the bench,
 * not asserted as time)". Streams a client's "Download my data" zip (POST /client/profile/export, what the
 * Privacy tab's button posts) from the bench's server process and samples that process's resident memory
 * (VmRSS in /proc, Linux) before, throughout and after the download.
 *
 * The export is limited to 3 a day per client (DATA_EXPORTS_PER_DAY); the bench seeds fresh clients on
 * every run, so its one export per run is the client's first of the day and needs no way around the limit.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export interface ExportMemory {
  /** Size of the zip as received. */
  bytes: number;
  /** From the post to the last byte. */
  seconds: number;
  "RSS before MB": number;
  /** The highest sample taken while the zip streamed. */
  "RSS peak MB": number;
  /** A second after the last byte (nothing waits on it: a figure, not an assertion). */
  "RSS after MB": number;
  samples: number;
}

/** What the export needs of a signed-in session (the bench's and the tests' `Session`). */
interface Poster {
  post(path: string, fields: Record<string, string>): Promise<Response>;
}

const rssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);
};

/**
 * Exports the data of the client signed in as `session` from the server whose process id is `pid`,
 * reading the zip as fast as it comes, and samples that process's RSS every `everyMs`.
 */
export async function measureExportMemory(session: Poster, pid: number, everyMs = 20): Promise<ExportMemory> {
  const before = rssMb(pid);
  let peak = before;
  let samples = 1;
  const sample = () => {
    peak = Math.max(peak, rssMb(pid));
    samples++;
  };
  const sampler = setInterval(sample, everyMs);
  const t0 = performance.now();
  let bytes = 0;
  try {
    const res = await session.post("/client/profile/export", {});
    if (res.status !== 200 || !res.body) throw new Error(`the export answered ${res.status}`);
    for await (const chunk of res.body) {
      bytes += (chunk as Uint8Array).byteLength;
      sample();
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = Math.round((performance.now() - t0) / 10) / 100;
  sample();
  await new Promise((r) => setTimeout(r, 1000));
  return {
    bytes,
    seconds,
    "RSS before MB": before,
    "RSS peak MB": peak,
    "RSS after MB": rssMb(pid),
    samples,
  };
}

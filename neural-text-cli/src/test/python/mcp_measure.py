#!/usr/bin/env python3
"""Measures `neural-text mcp` on a folder, as a client sees it (stdio JSON-RPC, no SDK).

  python3 neural-text-cli/src/test/python/mcp_measure.py FOLDER INDEX_DIR [--no-dense] [--idle 60]

Prints, for a server started on FOLDER with its index in INDEX_DIR: the time from process start to the first
`search` answer and to a complete BM25 index; once the index is complete (dense vectors too), the latency of 100 warm searches (p50, p95) and
the characters per answer at limit 8; and the CPU time the server process used while idle for --idle seconds.
Run it twice, the first time with an empty INDEX_DIR, to get both start-up figures.
"""
import json
import os
import subprocess
import sys
import threading
import time

QUERIES = ["RrfFusion", "HybridCaseRetriever search", "how are fused scores normalised",
           "CodeDomainTokenizer", "adaptive extension relevance floor", "PayloadFilter parse",
           "where is the index saved to disk", "DenseBackfill", "BM25 field weights", "what does the reranker do"]


class Server:
    def __init__(self, args):
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.responses = {}
        self.cond = threading.Condition()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            msg = json.loads(line)
            if "id" in msg:
                with self.cond:
                    self.responses[msg["id"]] = msg
                    self.cond.notify_all()

    def request(self, method, params):
        with self.cond:
            rid = self.next_id
            self.next_id += 1
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
                               + "\n").encode())
        with self.cond:
            while rid not in self.responses:
                self.cond.wait()
            return self.responses.pop(rid)

    def notify(self, method):
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())

    def tool(self, name, args):
        return self.request("tools/call", {"name": name, "arguments": args})["result"]

    def cpu_seconds(self):
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    folder, index = sys.argv[1], sys.argv[2]
    no_dense = "--no-dense" in sys.argv
    idle = int(sys.argv[sys.argv.index("--idle") + 1]) if "--idle" in sys.argv else 60
    jar = os.path.join(os.path.dirname(__file__), "..", "..", "..", "target", "neural-text.jar")
    saved = os.path.exists(os.path.join(index, "CURRENT"))
    args = ["java", "-jar", jar, "mcp", folder, "--index", index] + (["--no-dense"] if no_dense else [])
    start = time.monotonic()
    s = Server(args)
    s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "measure", "version": "1"}})
    print("start to the initialize response: %.2f s (server CPU %.2f s)" % (time.monotonic() - start,
                                                                         s.cpu_seconds()))
    s.notify("notifications/initialized")
    first = s.tool("search", {"query": "RrfFusion"})
    print("start to first search answer (%s saved index): %.2f s (server CPU %.2f s); complete: %s" % (
        "with a" if saved else "no", time.monotonic() - start, s.cpu_seconds(),
        first["structuredContent"]["indexComplete"]))
    while s.tool("status", {})["structuredContent"]["phase"] == "indexing":
        time.sleep(0.2)
    print("BM25 index complete after %.1f s" % (time.monotonic() - start))
    while True:
        st = s.tool("status", {})["structuredContent"]
        cov = st["denseCoverage"]
        if st["phase"] == "ready" and st["lastUpdated"] and (no_dense or (cov["withDense"] == cov["chunks"]
                                                                         and st["denseLoaded"])):
            break
        time.sleep(1)
    print("index ready after %.1f s: %d files, %d chunks, legs %s, dense %d/%d" % (
        time.monotonic() - start, st["files"], st["chunks"], st["legs"], cov["withDense"], cov["chunks"]))
    times, chars = [], []
    for i in range(100):
        q = QUERIES[i % len(QUERIES)]
        t = time.monotonic()
        r = s.tool("search", {"query": q, "limit": 8})
        times.append((time.monotonic() - t) * 1000)
        chars.append(len(r["content"][0]["text"]))
    times.sort()
    print("warm search over 100 calls: p50 %.1f ms, p95 %.1f ms" % (times[49], times[94]))
    print("characters per answer at limit 8: mean %.0f, min %d, max %d" % (sum(chars) / len(chars), min(chars),
                                                                        max(chars)))
    before = s.cpu_seconds()
    time.sleep(idle)
    used = s.cpu_seconds() - before
    print("idle CPU over %d s: %.2f s of CPU (%.2f%% of one core)" % (idle, used, 100 * used / idle))
    s.proc.stdin.close()
    s.proc.wait(timeout=60)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# sample.py OUT -- CMD...: runs CMD, samples its VmRSS every 2 ms into OUT (ms, MiB), prints its VmHWM at exit
import subprocess, sys, time
out = sys.argv[1]; cmd = sys.argv[3:]
t0 = time.time()
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
rows = []; hwm = 0
import threading
lines = []
def reader():
    for l in p.stdout:
        lines.append(l.decode(errors='replace'))
th = threading.Thread(target=reader); th.start()
while p.poll() is None:
    try:
        with open(f"/proc/{p.pid}/status") as f:
            for l in f:
                if l.startswith("VmRSS"):
                    rows.append((int((time.time()-t0)*1000), int(l.split()[1])//1024))
                elif l.startswith("VmHWM"):
                    hwm = int(l.split()[1])//1024
    except Exception:
        pass
    time.sleep(0.002)
th.join()
with open(out, "w") as f:
    for t, r in rows: f.write(f"{t} {r}\n")
peak = max(rows, key=lambda x: x[1]) if rows else (0, 0)
print(f"hwm {hwm} MiB; sampled peak {peak[1]} MiB at {peak[0]} ms; end {rows[-1] if rows else None}")
sys.stdout.write("".join(l for l in lines if "rss" in l.lower() or "error" in l.lower())[:2000])

#!/usr/bin/env python3
"""sass_stats.py - per-opcode summary of the SASS pages bench/profile_corpus.sh writes.

    python3 bench/sass_stats.py OUT/tilec_<family>_<kernel>.sass.csv ...

For each file: static and executed instruction counts and stall samples per opcode (the 14
most executed), and the stall reasons with the most samples. Compare tilec's page with its
Triton original's to see where the instructions differ.
"""
import csv, sys, collections
def load(path):
    rows=list(csv.reader(open(path)))
    hdr=rows[1]; data=rows[2:]
    i_src=hdr.index("Source"); i_s=hdr.index("Warp Stall Sampling (All Samples)"); i_ex=hdr.index("Instructions Executed")
    stall_cols=[(j,h) for j,h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
    return hdr,data,i_src,i_s,i_ex,stall_cols
for path in sys.argv[1:]:
    hdr,data,i_src,i_s,i_ex,stall_cols=load(path)
    ops=collections.Counter(); samp=collections.Counter(); execd=collections.Counter()
    stalls=collections.Counter()
    tot=0
    for r in data:
        op=r[i_src].split()[0] if r[i_src].split() else ''
        if op.startswith('@'): op=r[i_src].split()[1]
        op=op.split('.')[0]
        n=int(r[i_s] or 0); e=int(r[i_ex] or 0)
        ops[op]+=1; samp[op]+=n; execd[op]+=e; tot+=n
        for j,h in stall_cols: stalls[h]+=int(r[j] or 0)
    print("==",path,"samples",tot,"static instrs",len(data),"executed",sum(execd.values()))
    for op,c in execd.most_common(14): print(f"  {op:10s} static {ops[op]:6d} exec {c:10d} samples {samp[op]:6d}")
    print("  stalls:", ", ".join(f"{h[6:]} {c}" for h,c in stalls.most_common(7)))

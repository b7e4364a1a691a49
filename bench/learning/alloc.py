"""A task of the learning benchmark: holds MIB mebibytes of touched memory for SECONDS, then exits 0.

Usage: python3 alloc.py MIB SECONDS
"""
import sys
import time

mib = int(sys.argv[1])
seconds = float(sys.argv[2])
block = bytearray(mib * 1024 * 1024)
for i in range(0, len(block), 4096):  # touch every page, so it is resident, not just promised
    block[i] = 1
time.sleep(seconds)

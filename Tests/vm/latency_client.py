#!/usr/bin/env python3
"""A second socket client for the VM test: subscribes to every gesture and writes each line with the
CLOCK_MONOTONIC time it arrived ("received"), to measure event timestamp -> client delay."""
import json
import socket
import sys
import time

path, out = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
for _ in range(100):
    try:
        s.connect(path)
        break
    except OSError:
        time.sleep(0.1)
s.sendall(b'{"request":"subscribe"}\n')
buffer = b""
with open(out, "w", buffering=1) as f:
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        now = time.clock_gettime(time.CLOCK_MONOTONIC)
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if obj.get("type") == "gesture":
                obj["received"] = now
                f.write(json.dumps(obj) + "\n")

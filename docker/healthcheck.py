#!/usr/bin/env python3
"""Container healthcheck: exit 0 when Scrapyd's daemonstatus.json answers "ok".
Uses SCRAPYD_USERNAME / SCRAPYD_PASSWORD when Scrapyd requires them."""
import base64
import json
import os
import sys
from urllib.request import Request, urlopen

request = Request(os.environ.get("SCRAPYD_HEALTH_URL", "http://127.0.0.1:6800/daemonstatus.json"))
user = os.environ.get("SCRAPYD_USERNAME")
if user:
    token = base64.b64encode(f"{user}:{os.environ.get('SCRAPYD_PASSWORD', '')}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
try:
    with urlopen(request, timeout=5) as response:
        ok = json.loads(response.read()).get("status") == "ok"
except (OSError, ValueError):
    ok = False
sys.exit(0 if ok else 1)

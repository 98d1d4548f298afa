"""The reverse proxy's routing by table (README, "A club night or a convention"): every route
that names a table gives the proxy that table, nothing else does, and the README's nginx
configuration says the same patterns; with nginx installed, nginx itself sends a table's pages
and API calls to one server."""

from __future__ import annotations

import http.client
import http.server
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from companion.web.proxy_routing import TABLE_IN_PATH, nginx_table_map

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "Zq3_kL9-xY2pQ7rT1uV5wA"
CODE = "K7M2QX"
TABLE_BLUEPRINTS = {"table_pages", "api"}
"""The blueprints whose ``token`` or ``code`` is a table's (a card's short code is ``/q/<code>``)."""


def table_named(path: str) -> str | None:
    """What the proxy's map makes of ``path``: the first pattern's group, else nothing."""
    for pattern in TABLE_IN_PATH:
        if match := re.match(pattern, path):
            return match.group(1)
    return None


def sample_path(rule) -> str:
    values = {"token": TOKEN, "code": CODE, "seq": 3, "game": "carpe_diem", "card_id": "x1", "version": 2,
              "filename": "companion.css", "lang": "de"}
    return rule.build({name: values[name] for name in rule.arguments}, append_unknown=False)[1]


def test_every_route_that_names_a_table_gives_the_proxy_that_table(app):
    named = 0
    for rule in app.url_map.iter_rules():
        path = sample_path(rule)
        if rule.endpoint.split(".")[0] in TABLE_BLUEPRINTS and {"token", "code"} & rule.arguments:
            assert table_named(path) == (TOKEN if "token" in rule.arguments else CODE), rule.rule
            named += 1
        else:
            assert table_named(path) is None, rule.rule
    assert named >= 15  # the table pages and the table API


def test_the_readme_routes_with_the_same_patterns():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```nginx\n(map \$uri .*?\n}\n)upstream companion \{\n(.*?)\n", readme, re.S)
    assert block is not None, "the README's club-night nginx block lost its map"
    assert block.group(1) == nginx_table_map(indent="") + "\n"
    assert block.group(2).split("#")[0].strip() == "hash $companion_table;"


class _Backend(http.server.ThreadingHTTPServer):
    """A stand-in for one companion process: answers every request with its own name."""

    def __init__(self, name: str):
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                body = name.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


@pytest.mark.skipif(shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(),
                    reason="nginx is not installed")
def test_nginx_sends_a_tables_pages_and_api_calls_to_one_server(tmp_path):
    backends = [_Backend(f"server {n}") for n in (1, 2)]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    servers = "\n".join(f"        server 127.0.0.1:{b.server_address[1]};" for b in backends)
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"""worker_processes 1;
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
{nginx_table_map(indent="    ")}
    upstream companion {{
        hash $companion_table;
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{ proxy_pass http://companion; }}
    }}
}}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(conf)], stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)

        def answered_by(method: str, path: str) -> str:
            client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            client.request(method, path)
            return client.getresponse().read().decode()

        chosen = {}
        for n in range(24):
            token = f"{TOKEN[:-2]}{n:02d}"
            seen = {answered_by("GET", f"/t/{token}"), answered_by("GET", f"/t/{token}/live?v=3"),
                    answered_by("POST", f"/t/{token}/events"), answered_by("GET", f"/api/tables/{token}"),
                    answered_by("POST", f"/api/tables/{token}/events")}
            assert len(seen) == 1, (token, seen)
            chosen[token] = seen.pop()
        assert set(chosen.values()) == {"server 1", "server 2"}  # 24 tables do not all hash to one
        others = {answered_by("GET", "/static/companion.css") for _ in range(6)}
        assert others == {"server 1", "server 2"}  # no table: round-robin
    finally:
        process.terminate()
        process.wait(10)
        for backend in backends:
            backend.shutdown()

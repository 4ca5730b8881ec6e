"""The site on a real static host: nginx from Debian on 127.0.0.1, configured as GitHub Pages,
Netlify and S3 websites behave (a missing address answers 404 with the site's `404.html`), at the
host's root and under a sub-path with `"baseURL"` set. Run by `make test`.

For missing addresses at several depths the page must come with its stylesheet and every link
on it must lead to a page that exists (200); an address shortened from a statement's
(`statements/<account>/`) must be a page, not the 404.
"""
import sys
import json
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for the shared helper
from nestegg_binary import ROOT, nestegg_binary  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

MISSING = ["/nope.html", "/statements/personal/2027-01.html", "/roundups/gone/2019-W01.html", "/a/b/c/d/e.html", "/statements/nope/"]




def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_site(folder: Path, base_url: str | None) -> Path:
    data = folder / "data"
    shutil.copytree(ROOT / "Fixtures", data)
    if base_url:
        settings = json.loads((data / "nestegg.json").read_text())
        settings["baseURL"] = base_url
        (data / "nestegg.json").write_text(json.dumps(settings))
    output = folder / "site"
    subprocess.run([str(nestegg_binary()), "build", "-q", "--data", str(data), "--output", str(output)], check=True)
    return output


class Host:
    """nginx serving `site` at `prefix` ('/' or '/family/') on a free loopback port; stopped by PID."""

    def __init__(self, folder: Path, site: Path, prefix: str):
        self.port = free_port()
        self.prefix = prefix
        location = (f"location {prefix} {{ root {site}; try_files $uri $uri/ =404; }}" if prefix == "/" else
                    f"location {prefix} {{ alias {site}/; try_files $uri $uri/ =404; }}")
        config = folder / "nginx.conf"
        config.write_text(f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    server {{
        listen 127.0.0.1:{self.port};
        error_page 404 {prefix}404.html;
        {location}
    }}
}}
""")
        self.process = subprocess.Popen([NGINX, "-c", str(config), "-p", str(folder)], stderr=subprocess.PIPE)
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start: {(folder / 'error.log').read_text() if (folder / 'error.log').exists() else ''}")

    def get(self, path: str) -> tuple[int, str]:
        url = f"http://127.0.0.1:{self.port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")

    def stop(self):
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module", params=[None, "https://example.org/family/"], ids=["root", "sub-path"])
def host(request):
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: `make test` installs it (Debian's nginx)")
    folder = Path(tempfile.mkdtemp(prefix="nestegg-host-"))
    folder.chmod(0o755)  # nginx's workers run as another user, as on a real host
    site = build_site(folder, request.param)
    prefix = urllib.parse.urlparse(request.param).path if request.param else "/"
    server = Host(folder, site, prefix)
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="([^"#]+)(?:#[^"]*)?"', html)


@pytest.mark.parametrize("missing", MISSING)
def test_missing_addresses_get_a_styled_404_whose_links_resolve(host, missing):
    status, body = host.get(host.prefix.rstrip("/") + missing)
    assert status == 404
    assert "<h1>Page not found</h1>" in body
    assert f'<link rel="stylesheet" href="{host.prefix}style.css">' in body
    targets = [link for link in links(body) if not link.startswith(("http://", "https://", "data:", "mailto:"))]
    assert len(targets) >= 5, targets
    requested = host.prefix.rstrip("/") + missing
    for target in targets:
        resolved = urllib.parse.urljoin(requested, target)
        status, _ = host.get(resolved)
        assert status == 200, f"{target} on the 404 page of {requested} leads to {resolved}: {status}"


def test_a_shortened_statement_address_is_a_page(host):
    for folder in ("statements/personal/", "statements/euro-travel/"):
        status, body = host.get(host.prefix + folder)
        assert status == 200, folder
        assert "Statements: " in body
        for target in links(body):
            if target.startswith(("http", "data:")):
                continue
            resolved = urllib.parse.urljoin(host.prefix + folder, target)
            assert host.get(resolved)[0] == 200, f"{target} on {folder} leads to {resolved}"

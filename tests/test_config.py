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

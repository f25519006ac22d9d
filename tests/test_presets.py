"""Configuration presets: the library, the CLI and the service run the ``fast`` one by name.

``fast`` trades accuracy for latency (the static embedder's shortlist, two candidates a claim for
the judge; figures in docs/benchmarks.md, "the fast preset"). These tests check that each entry
point really runs it, with the real models, a real litestar app and the real CLI.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from attribution import (
    PRESETS,
    AttributionConfig,
    Attributor,
    CitationSource,
    ConfigError,
    FeatureVerifier,
    MatchConfig,
    ReconcileConfig,
    VerifyConfig,
    load_config,
    preset,
    read_config,
)
from attribution._cli import main
from attribution.service import Settings, create_app
from tests._service import wait_until_ready

SOURCES = [
    CitationSource(
        id="tower",
        type="web",
        full_content="The Eiffel Tower is 330 metres tall. It was completed in 1889 in Paris.",
    ),
    CitationSource(
        id="river",
        type="web",
        full_content="The Seine flows through Paris before reaching the English Channel.",
    ),
]
ANSWER = "The Eiffel Tower was completed in 1889. The tower is painted bright green every spring."


def test_the_fast_preset_is_the_static_shortlist_with_two_candidates_a_claim() -> None:
    fast = preset("fast")
    assert fast.model.embedder == "minilm-static-256"
    assert fast.verify.passages_per_claim == 2
    assert fast.match.lexical_weight == 0.5
    assert preset("default") == AttributionConfig()
    assert set(PRESETS) == {"default", "fast"}
    with pytest.raises(TypeError):
        PRESETS["mine"] = AttributionConfig()  # type: ignore[index]


def test_an_unknown_preset_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"no configuration preset 'quick'.*default, fast"):
        preset("quick")


@pytest.mark.parametrize(
    ("build", "said"),
    [
        (
            lambda: ReconcileConfig(placement="after"),
            "Invalid enum value 'after' - at `$.placement`",
        ),
        (
            lambda: ReconcileConfig(fill_missing="no"),
            "Expected `bool`, got `str` - at `$.fill_missing`",
        ),
        (lambda: ReconcileConfig(marker_style="nope"), "Invalid enum value 'nope'"),
        (lambda: VerifyConfig(support_threshold="0.5"), "at `$.support_threshold`"),
        (
            lambda: AttributionConfig(match={}),
            "AttributionConfig.match must be a MatchConfig, not dict",
        ),
        (lambda: MatchConfig(top_k=0), "MatchConfig.top_k = 0 is out of bounds: 1..100"),
        (lambda: ReconcileConfig(max_sources_per_claim=object()), "ReconcileConfig: Encoding"),
    ],
)
def test_a_section_built_in_code_is_held_to_its_types(build: Any, said: str) -> None:
    # as a configuration file is: "no" is not False, "after" is no placement
    with pytest.raises(ConfigError, match=re.escape(said)) as raised:
        build()
    section = str(raised.value).split(":")[0].split(".")[0]
    assert str(raised.value).count(section) == 1  # the section named once, not twice
    assert VerifyConfig(support_threshold=1).support_threshold == 1  # an int is a float


def test_a_configuration_is_read_by_preset_name_or_from_a_file(tmp_path: Path) -> None:
    assert read_config("fast") is PRESETS["fast"]
    own = tmp_path / "engine.json"
    own.write_text('{"match": {"top_k": 7}}', encoding="utf-8")
    assert read_config(str(own)).match.top_k == 7
    with pytest.raises(ConfigError, match=r"neither a preset \(default, fast\) nor a readable"):
        read_config(str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="neither a preset"):
        read_config(str(tmp_path))  # a folder
    own.write_bytes(b"\xff\xfe{")
    with pytest.raises(ConfigError, match="malformed JSON"):
        read_config(str(own))
    # neither JSON text nor a dict, and a dict where a configuration is due: clear errors
    for wrong in ([], None, 3):
        with pytest.raises(ConfigError, match="expected JSON text or a dict"):
            load_config(wrong)  # type: ignore[arg-type]
    engine = Attributor()
    with pytest.raises(ConfigError, match="with_config takes an AttributionConfig, got dict"):
        engine.with_config({"match": {"top_k": 7}})  # type: ignore[arg-type]


def test_the_fast_preset_judges_with_the_static_embedder_and_its_own_combination() -> None:
    engine = Attributor(preset("fast"))
    result = engine.attribute(ANSWER, SOURCES)
    supported, unsupported = result.claims
    assert supported.verdict == "supported", (supported.verdict, supported.score)
    assert unsupported.verdict in ("unsupported", "contradicted"), unsupported.verdict
    assert result.answer.startswith("The Eiffel Tower was completed in 1889 [1].")
    assert type(engine.embedder).__name__ == "StaticEmbedder"
    assert isinstance(engine.verifier, FeatureVerifier)
    # the combination fitted with the static embedder's cosines, not MiniLM's
    assert engine.verifier.weights.embedder == "minilm-static-256"


def test_a_joined_pair_counts_only_where_the_judge_reads_it_as_support() -> None:
    """The bundled example's false claim ("the first telescope ever launched to the surface of
    the Moon"): with the fast preset two passages on the telescope and the Moon, joined, scored
    0.61 combined (above the threshold) while the judge's own P(support) of them is 0.38."""
    root = Path(__file__).resolve().parents[1] / "attribution" / "examples"
    answer = (root / "answer.md").read_text(encoding="utf-8")
    outputs = json.loads((root / "tool_outputs.json").read_text(encoding="utf-8"))
    fast = preset("fast")

    def moon(config: AttributionConfig) -> Any:
        result = Attributor(config).attribute(answer, outputs)
        (claim,) = [c for c in result.claims if "surface of the Moon" in c.text]
        return claim

    claim = moon(fast)
    assert claim.verdict != "supported", (claim.verdict, claim.score)
    # the combined score alone (the option off) calls it supported by the joined pair
    before = moon(
        msgspec.structs.replace(
            fast, verify=msgspec.structs.replace(fast.verify, joined_needs_judge=False)
        )
    )
    assert before.verdict == "supported"
    assert len(before.source_ids) == 2  # the two joined passages' sources


def test_the_cli_runs_a_preset_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sources = tmp_path / "sources.json"
    sources.write_text(
        json.dumps([{"id": s.id, "type": s.type, "fullContent": s.full_content} for s in SOURCES]),
        encoding="utf-8",
    )
    answer = tmp_path / "answer.md"
    answer.write_text(ANSWER + "\n", encoding="utf-8")
    argv = ["attribute", "--answer", str(answer), "--sources", str(sources), "--json", "-"]
    assert main([*argv, "--config", "fast"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [c["verdict"] for c in result["claims"]][:1] == ["supported"]
    assert result["answer"].startswith("The Eiffel Tower was completed in 1889 [1].")
    assert main([*argv, "--config", "quick"]) == 2
    assert "--config quick: neither a preset (default, fast) nor a readable file" in (
        capsys.readouterr().err
    )


def test_a_service_setting_names_the_preset_or_a_file(tmp_path: Path) -> None:
    settings = Settings.from_env({"ATTRIBUTION_CONFIG": "fast", "ATTRIBUTION_MODEL_THREADS": "1"})
    config = settings.engine_config()
    assert config.model.embedder == "minilm-static-256"
    assert config.verify.passages_per_claim == 2
    assert config.model.intra_op_threads == 1  # the service's threads on top of the preset
    unset = Settings().engine_config()  # the defaults, with the service's threads
    assert unset.model.embedder == AttributionConfig().model.embedder
    assert unset.verify == AttributionConfig().verify

    own = tmp_path / "engine.json"
    own.write_text('{"verify": {"passages_per_claim": 3}}', encoding="utf-8")
    assert Settings(config=str(own)).engine_config().verify.passages_per_claim == 3

    with pytest.raises(ConfigError, match=r"neither a preset \(default, fast\) nor a readable"):
        Settings(config="quick")
    own.write_text('{"verify": {"passages_per_claim": 0}}', encoding="utf-8")
    with pytest.raises(ConfigError, match="passages_per_claim = 0 is out of bounds"):
        Settings(config=str(own))
    own.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="malformed JSON"):
        Settings(config=str(own))


def test_the_service_refuses_to_start_on_a_bad_config_setting() -> None:
    env = {**os.environ, "ATTRIBUTION_CONFIG": "quick"}
    done = subprocess.run(
        [sys.executable, "-m", "attribution.service"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "setting config = 'quick': neither a preset" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_service_runs_the_fast_preset(tmp_path: Path, anyio_backend: str) -> None:
    settings = Settings(database_path=str(tmp_path / "c.sqlite3"), config="fast")
    app = create_app(settings)
    async with AsyncTestClient(app=app, base_url="http://127.0.0.1") as client:
        await wait_until_ready(client)
        engine: Attributor = app.state.attributor
        assert engine.config.model.embedder == "minilm-static-256"
        assert engine.config.verify.passages_per_claim == 2
        body = {
            "answer": ANSWER,
            "sources": [
                {"id": s.id, "type": s.type, "fullContent": s.full_content} for s in SOURCES
            ],
        }
        response = await client.post("/v1/attributions", json=body)
        assert response.status_code == 200, response.text
        claims = response.json()["claims"]
        assert claims[0]["verdict"] == "supported"
        assert claims[1]["verdict"] in ("unsupported", "contradicted")

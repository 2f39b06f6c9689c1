"""Every loader of outside bytes, fed random bytes and mutations of valid files,
either loads or raises a :class:`~polyforms.errors.PolyformError`: never another
exception, a hang or a signal.

The loaders: a saved sweep over boards (the compiled twin's and the readable
twin's ``BoardSweep.load``, which must accept and refuse the same bytes with the
same message, and run alike on what they accept), the journal of a count on the
job layer (opened, planned and its rests taken up, as a resumed run does, for a
tiling count and an exact-cover count), Knuth's DLX text
(:meth:`ExactCover.from_dlx`) and piece-set picture files
(:meth:`PieceSet.resolve`), region pictures (:meth:`Region.parse`), catalogues
(:func:`polyforms.read_catalogue`: txt, jsonl, csv) and files of tilings
(:func:`polyforms.read_solutions`), each as the command line reads a file.

The loaders run in one child process that reads cases from its standard input
and prints one verdict line for each, so that a crash in compiled code fails the
test instead of killing the run, and many cases share one start-up. A child
that dies is started again for the next case.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The child: each input line is ``KIND HEX``; each output line the JSON list
# ``[verdict, ...]``, verdict "ok" (loaded), "refused" (a PolyformError: its
# type and message) or "BAD" (anything else, with its type and message). The
# line ``seed KIND`` asks for the valid file of that kind, as hex.
CHILD = textwrap.dedent(
    r"""
    import io, json, os, sys, tempfile, traceback
    from polyforms.errors import PolyformError

    def verdict(load):
        try:
            shown = load()
        except PolyformError as error:
            return ["refused", type(error).__name__, str(error)]
        except BaseException as error:
            tail = traceback.format_exc().splitlines()[-3:]
            return ["BAD", type(error).__name__, str(error)[:300], tail]
        return ["ok", shown]

    # -- saved sweeps, both twins ------------------------------------------------
    from polyforms import _backend
    from polyforms.tiling import problem as tiling_problem, engines
    from polyforms.tiling import _tiling_py as twin

    spec = tiling_problem.tile("5x10", "pentominoes", reuse=True).searches.over().spec
    searches = {"python": twin.TilingSearch(**spec._asdict())}
    kernels = {"python": twin}
    compiled = _backend.compiled("tiling")
    if compiled is not None:
        searches["compiled"] = engines.make_search(spec)
        kernels["compiled"] = compiled

    def sweep_seed():
        sweep = twin.BoardSweep(searches["python"])
        sweep.run(2000)
        out = io.BytesIO()
        sweep.save(out)
        return out.getvalue()

    def load_sweep(which, data):
        def load():
            sweep = kernels[which].BoardSweep(searches[which])
            sweep.load(io.BytesIO(data))
            done = sweep.run(300)  # what it took up must sweep alike
            return [sweep.states, sweep.moves, sweep.filled, done, sweep.count if done else None]
        return verdict(load)

    # -- journals of the job layer ---------------------------------------------
    import polyforms as pf
    from polyforms.exactcover import subtasks as exactcover_subtasks
    from polyforms.jobs import resumable, runner
    from polyforms.tiling import counting

    work = tempfile.mkdtemp(prefix="polyforms-fuzz-")
    resumable.TASK_NODES, resumable.BUDGET_SHARE = 4, 10**9  # subtasks hand back rests
    tiling_count = pf.tile("4x5", "pentominoes", optional=True)
    queens = pf.examples.queens(8)
    journal_jobs = {}

    def tiling_job():
        search, spec, _ = tiling_count.searches.over()
        return counting.CountJob(spec, tiling_count.symmetry_breaking.restrictions())

    def exact_cover_job():
        return exactcover_subtasks.CountJob(queens.flat, [], False)

    def journal_seed(kind):
        path = os.path.join(work, "seed-" + kind)
        if kind == "tiling":
            tiling_count.count(checkpoint=path)
        else:
            queens.count(checkpoint=path)
        with open(path, "rb") as handle:
            return handle.read()

    def take_up(kind, data):
        if kind not in journal_jobs:
            journal_jobs[kind] = tiling_job() if kind == "tiling" else exact_cover_job()
        job = journal_jobs[kind]
        path = os.path.join(work, "case.ckpt")
        with open(path, "wb") as handle:
            handle.write(data)

        def load():
            run = runner._Run(job, None, path, None, None)
            try:
                run._plan_tasks()  # opens the journal, checks the plan, takes up the rests
                stored = [task.id for task, kept in zip(run.tasks, run.stored) if kept]
            finally:
                run._shutdown(failed=True)
            return [len(run.tasks), len(stored)]
        return verdict(load)

    # -- DLX text and piece pictures, decoded as the command line decodes a file ---
    from polyforms._textio import decode_text
    from polyforms.exactcover.problem import ExactCover
    from polyforms.piece_sets import PieceSet

    def load_dlx(data):
        def load():
            problem = ExactCover.from_dlx(decode_text(data, "case.dlx"))
            try:
                again = ExactCover.from_dlx(problem.to_dlx())  # what it writes, it reads
            except PolyformError as error:
                raise AssertionError(f"its own DLX text is refused: {error}") from None
            return [len(problem.choices), len(again.choices)]
        return verdict(load)

    def load_pieces(data):
        def load():
            pieces = PieceSet.resolve(decode_text(data, "pieces.txt"))
            return sorted(pieces.names)
        return verdict(load)

    # -- regions, catalogues and solution files, as files the command line reads ---
    from polyforms import Region, read_catalogue, read_solutions

    def load_region(data):
        def load():
            region = Region.parse(decode_text(data, "region.txt"))
            return [len(region.cells)]
        return verdict(load)

    def load_file(kind, data):
        path = os.path.join(work, "case." + kind.partition("-")[2])
        with open(path, "wb") as handle:
            handle.write(data)

        def load():
            if kind == "solutions-jsonl":
                with open(path, encoding="utf-8", errors="strict") as stream:
                    try:
                        found = list(read_solutions(stream, path))
                    except UnicodeDecodeError as error:  # read_solutions takes text
                        raise PolyformError(str(error)) from None
                return [len(found)]
            return [len(list(read_catalogue(path)))]
        return verdict(load)

    SEEDS = {
        "sweep": sweep_seed,
        "journal-tiling": lambda: journal_seed("tiling"),
        "journal-exactcover": lambda: journal_seed("exactcover"),
    }
    print(json.dumps(sorted(kernels)), flush=True)
    for line in sys.stdin:
        kind, _, payload = line.strip().partition(" ")
        if kind == "seed":
            print(json.dumps(SEEDS[payload]().hex()), flush=True)
            continue
        data = bytes.fromhex(payload)
        if kind == "sweep":
            answer = {which: load_sweep(which, data) for which in kernels}
        elif kind.startswith("journal-"):
            answer = take_up(kind.partition("-")[2], data)
        elif kind == "dlx":
            answer = load_dlx(data)
        elif kind == "region":
            answer = load_region(data)
        elif kind.startswith(("catalogue-", "solutions-")):
            answer = load_file(kind, data)
        else:
            answer = load_pieces(data)
        print(json.dumps(answer), flush=True)
    """
)

#: Seconds a case may take before the child is taken to hang.
CASE_SECONDS = 30


class Child:
    """The loaders' child process, started again after it dies."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.kernels: list[str] = []
        self.seeds: dict[str, bytes] = {}

    def _start(self) -> None:
        env = dict(os.environ)
        env.pop("POLYFORMS_BACKEND", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        self.kernels = json.loads(self._answer("start"))

    def _answer(self, case: str) -> str:
        assert self.process is not None and self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], CASE_SECONDS)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            process, self.process = self.process, None
            process.kill()
            status = process.wait()
            stderr = process.stderr.read()[-2000:] if process.stderr else ""
            how = "hung" if not ready else f"died with status {status}"
            pytest.fail(f"the loaders' child {how} on {case[:200]}: {stderr}")
        return line

    def ask(self, kind: str, payload: str) -> object:
        if self.process is None:
            self._start()
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(f"{kind} {payload}\n")
        self.process.stdin.flush()
        return json.loads(self._answer(f"{kind} {payload}"))

    def seed(self, kind: str) -> bytes:
        if kind not in self.seeds:
            self.seeds[kind] = bytes.fromhex(self.ask("seed", kind))  # type: ignore[arg-type]
        return self.seeds[kind]

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()  # type: ignore[union-attr]
            self.process.wait(timeout=60)
            self.process = None


@pytest.fixture(scope="module")
def child():
    loaders = Child()
    yield loaders
    loaders.close()


def load(child: Child, kind: str, data: bytes) -> object:
    """The child's verdict on ``data``; any verdict but "ok" or "refused" fails."""
    answer = child.ask(kind, data.hex())
    verdicts = answer.values() if isinstance(answer, dict) else [answer]
    for verdict in verdicts:
        assert verdict[0] in ("ok", "refused"), (kind, data[:200], verdict)
    return answer


# -- mutations -------------------------------------------------------------------------

# Numbers a forger tries: the edges of the fixed-width ints, and small ones.
WORDS = [0, 1, 2, 7, 63, 64, 2**31 - 1, 2**31, 2**32, 2**48, 2**62, 2**63 - 1, 2**63, 2**64 - 1]
# Text a forger tries: separators and numbers of each loader's syntax.
TOKENS = [b"\n", b" ", b"|", b":", b",", b"#", b".", b"[", b"]", b"{", b"}", b'"', b"-1", b"0"]
TOKENS += [b"1e999", b"18446744073709551616", b"NaN", b"Infinity", b"\xff", b"\x00", b"\r"]


@st.composite
def mutated(draw, seed: bytes, word: int) -> bytes:
    """``seed`` with a few mutations: a bit flipped, a word overwritten with an edge
    number (``word``-byte words) or a token, a slice repeated or cut out, the end
    truncated."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["flip", "overwrite", "token", "repeat", "cut", "truncate"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if how == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif how == "overwrite" and word > 1:
            at -= at % word
            value = draw(st.sampled_from(WORDS)) if word == 8 else draw(st.integers(0, 255))
            data[at : at + word] = value.to_bytes(word, sys.byteorder)
        elif how in ("overwrite", "token"):
            token = draw(st.sampled_from(TOKENS))
            data[at : at + draw(st.integers(0, len(token)))] = token
        elif how == "repeat":
            size = draw(st.integers(1, 64)) * max(word, 1)
            data[at:at] = data[at : at + size]
        elif how == "cut":
            del data[at : at + draw(st.integers(1, 64)) * max(word, 1)]
        else:
            del data[at:]
    return bytes(data)


def cases(child: Child, kind: str, word: int):
    """Random bytes, or a mutation of the valid file of ``kind``."""
    return st.one_of(st.binary(max_size=600), mutated(child.seed(kind), word))


FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


# -- the tests -------------------------------------------------------------------------


def test_the_valid_files_load(child):
    sweep = load(child, "sweep", child.seed("sweep"))
    assert all(verdict[0] == "ok" for verdict in sweep.values())
    for kind in ("journal-tiling", "journal-exactcover"):
        assert b'"rest"' in child.seed(kind)
        assert load(child, kind, child.seed(kind))[0] == "ok"
    assert load(child, "dlx", b"| Knuth's example\na b c d e f | g\nc e\na d g\n")[0] == "ok"
    assert load(child, "pieces", PICTURES)[1] == ["3", "A", "B"]  # "#" takes its number


@FUZZ
@given(data=st.data())
def test_saved_sweeps_are_loaded_or_refused_alike_by_both_twins(child, data):
    case = data.draw(cases(child, "sweep", 8))
    answer = load(child, "sweep", case)
    if "compiled" in answer:
        assert answer["compiled"] == answer["python"], case[:200]


@pytest.mark.parametrize("kind", ["journal-tiling", "journal-exactcover"])
@FUZZ
@given(data=st.data())
def test_journals_are_taken_up_or_refused(child, kind, data):
    load(child, kind, data.draw(cases(child, kind, 1)))


@FUZZ
@given(data=st.data())
def test_dlx_text_is_loaded_or_refused(child, data):
    seed = b"| a comment\n2:3|a b 0:2|c | x y\na b x:1\nb c y\na c:0\nc x:2 y\n"
    load(child, "dlx", data.draw(st.one_of(st.binary(max_size=300), mutated(seed, 1))))


PICTURES = b"AAB\nA.B\nA.B\n\n##\n#.\n"


@FUZZ
@given(data=st.data())
def test_piece_pictures_are_loaded_or_refused(child, data):
    load(child, "pieces", data.draw(st.one_of(st.binary(max_size=300), mutated(PICTURES, 1))))


# Valid files of each kind the command line reads: catalogues and tilings as
# ``polyforms enumerate`` and ``polyforms tile`` write them.
REGION = b"#####\n#.#.#\n#####\n"
CATALOGUES = {
    "catalogue-jsonl": (
        b'{"cells":[[0,0],[0,1],[0,2],[1,0],[2,0]],"size":5,"kind":"free",'
        b'"symmetry":"diagonal-mirror","holes":0}\n'
        b'{"cells":[[0,0],[0,1],[1,0],[1,1]],"size":4,"kind":"free","symmetry":"all","holes":0}\n'
    ),
    "catalogue-txt": b"###\n#..\n#..\n\n##\n##\n",
    "catalogue-csv": (
        b"index,size,kind,symmetry,holes,cells\n"
        b"1,3,free,diagonal-mirror,0,0:0 0:1 1:0\n2,3,free,axis-mirrors,0,0:0 0:1 0:2\n"
    ),
    "solutions-jsonl": (
        b'{"placements":[{"piece":"I","cells":[[0,0],[0,1]]},{"piece":"I","cells":[[1,0],[1,1]]}]}\n'
        b'{"placements":[{"piece":"I","cells":[[0,0],[1,0]]},{"piece":"I","cells":[[0,1],[1,1]]}]}\n'
    ),
}


@FUZZ
@given(data=st.data())
def test_region_pictures_are_loaded_or_refused(child, data):
    load(child, "region", data.draw(st.one_of(st.binary(max_size=300), mutated(REGION, 1))))


@pytest.mark.parametrize("kind", sorted(CATALOGUES))
@FUZZ
@given(data=st.data())
def test_catalogues_and_tilings_files_are_loaded_or_refused(child, kind, data):
    seed = CATALOGUES[kind]
    assert load(child, kind, seed)[0] == "ok"
    load(child, kind, data.draw(st.one_of(st.binary(max_size=300), mutated(seed, 1))))


@pytest.mark.parametrize("kind", ["catalogue-txt", "catalogue-jsonl", "solutions-jsonl"])
def test_a_file_cut_inside_a_character_is_refused_where_it_is_cut(child, kind):
    """Found by the fuzzing above: the last bytes of a file, held back by the decoder
    as the start of a character, were looked up in the empty last block."""
    verdict = load(child, kind, b"\xc3\xa9\n\xc2")
    assert verdict[0] == "refused"
    if kind == "catalogue-txt":  # (the others refuse the first line first)
        assert verdict[2].endswith("not UTF-8 text (byte 0xc2 at offset 3)")

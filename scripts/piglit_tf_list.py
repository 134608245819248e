#!/usr/bin/env python3
"""Make tests/integration/piglit_tf.txt: the installed piglit's transform-feedback
(TF) tests that pass on Mesa llvmpipe, one command per line.

Discovery reads the installed piglit's "all" profile (tests/all.meta.xml:
opengl, shader, glslparser; each a gzipped XML test list) in its own order and
keeps a test when it is a TF test by this rule:

  * a compiled test (bin/<name>, opengl profile) is a TF test when
      - its dynamic symbols (`nm -D`) name a piglit_dispatch_gl*TransformFeedback*
        entry point (glBeginTransformFeedback, glTransformFeedbackVaryings,
        glBindTransformFeedback, glGetTransformFeedbackiv, ...) or
        piglit_require_transform_feedback, or
      - its embedded strings hold a GL TF extension name
        (GL_EXT_transform_feedback*, GL_ARB_transform_feedback*) or GLSL TF
        syntax (the markers below), or
      - it begins or ends a query of a TF counter: `objdump -d` shows
        GL_PRIMITIVES_GENERATED or GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
        (0x8c87, 0x8c88) loaded into %edi at most 4 instructions before a
        call of glBeginQuery/glEndQuery(Indexed) (e.g.
        glsl-1.50-gs-emits-too-few-verts, which has no other TF trace);
  * a shader_runner test (.shader_test) or glslparsertest source file is a TF
    test when its text, comments removed, holds
      - GLSL TF syntax: xfb_buffer, xfb_offset, xfb_stride, EmitStreamVertex,
        EndStreamPrimitive, layout(... stream = ...), gl_SkipComponents1-4,
        gl_NextBuffer;
      - SPIR-V TF decorations: XfbBuffer, XfbStride, Capability
        TransformFeedback / GeometryStreams, ExecutionMode ... Xfb;
      - a GL TF name: GL_EXT/ARB_transform_feedback*, GL_TRANSFORM_FEEDBACK*;
      - a shader_runner TF command: "xfb ...", "probe xfb ...";
  * any test whose piglit name or binary name says transform_feedback,
    transform-feedback or xfb.
  A compiled test whose only sign is a TF dispatch symbol must also call a
  TF entry point when it runs: piglit resolves each GL function at its first
  call (glXGetProcAddressARB, eglGetProcAddress or dlsym), and a small
  preloaded logger, compiled here with cc, records the names asked for.
  Tests that link a shared helper with TF entry points but never call them
  (most arb_separate_shader_objects tests) are left out, and listed as such.
  When a TF binary is run with several argument sets and some of them name TF
  (an argument containing xfb, tf or transform_feedback, e.g. isinf-and-isnan
  vs_xfb) only those are kept: the others do not use TF.
  The list is split on white space, so empty arguments are dropped (e.g.
  ext_transform_feedback-output-type float '') and a command with an argument
  holding white space is left out (counted, and listed at the end).

Each candidate then runs once, in parallel, from the piglit directory with
PIGLIT_PLATFORM=surfaceless_egl, PIGLIT_SOURCE_DIR=<piglit>,
LIBGL_ALWAYS_SOFTWARE=1 and GALLIUM_DRIVER=llvmpipe.  Compiled tests and
shader_runner get "-auto -fbo" appended (surfaceless EGL has no window, so
-fbo is needed, also for tests piglit marks non-concurrent);
glslparsertest lines run exactly as listed (it counts its positional
arguments).  A test is kept only when its last PIGLIT: line says
"result": "pass" and it exits 0 within --timeout seconds; fail, skip, warn,
crash and timeout are left out (listed as comments at the end of the file).
The kept lines are in profile order, so the output is deterministic.

The renderer is checked first with piglit's glinfo: a GL_RENDERER that is not
llvmpipe stops the run.

Exit status: 0 the list was written (or printed with --discover-only),
1 nothing passed, 2 piglit, binutils (nm, objdump) or llvmpipe missing or
a bad argument.
"""
import argparse
import ast
import concurrent.futures
import datetime
import gzip
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

REPO = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_PIGLIT = pathlib.Path("/usr/lib/x86_64-linux-gnu/piglit")
DEFAULT_OUTPUT = REPO / "tests" / "integration" / "piglit_tf.txt"
DEFAULT_TIMEOUT = 300
DEFAULT_PROFILES = ["opengl", "shader", "glslparser"]

GLSL_TF = (r"\bxfb_(?:buffer|offset|stride)\b"
           r"|\b(?:EmitStreamVertex|EndStreamPrimitive)\b"
           r"|\blayout\s*\([^)]*\bstream\s*="
           r"|\bgl_(?:SkipComponents[1-4]|NextBuffer)\b")
GL_TF_EXT = r"\bGL_(?:EXT|ARB)_transform_feedback\w*"
SOURCE_TF = re.compile("|".join([
    GLSL_TF, GL_TF_EXT,
    r"\bGL_TRANSFORM_FEEDBACK\w*",
    r"\b(?:XfbBuffer|XfbStride)\b",
    r"\bCapability\s+(?:TransformFeedback|GeometryStreams)\b",
    r"\bExecutionMode\s+\S+\s+Xfb\b",
    r"^[ \t]*(?:probe[ \t]+)?xfb[ \t]",
]), re.M)
BINARY_STRINGS_TF = re.compile(
    ("(?:%s|%s)" % (GLSL_TF, GL_TF_EXT)).encode())
SYMBOL_TF = re.compile(r"^piglit_dispatch_gl\w*TransformFeedback\w*$"
                       r"|^piglit_require_transform_feedback$")
INSN = re.compile(r"^\s+[0-9a-f]+:\t")
TF_QUERY_TARGET = re.compile(r"\bmov\s+\$0x8c8[78],%edi$")
QUERY_CALL = re.compile(r"\bcall\b.*<piglit_dispatch_gl(?:Begin|End)Query(?:Indexed)?[@>]")
# Every SOURCE_TF marker holds one of these (lower case): a cheap first test.
SOURCE_TF_WORDS = ("xfb", "stream", "gl_skipcomponents", "gl_nextbuffer",
                   "transform_feedback", "transformfeedback")
NAME_TF = re.compile(r"transform[_-]?feedback|xfb", re.I)
ARG_TF = re.compile(r"xfb|(?<![a-z])tf(?![a-z])|transform[_-]?feedback", re.I)
GLSL_PREPROCESSOR = re.compile(
    r"#\s*(?:version|extension|define|undef|if|ifdef|ifndef|elif|else|endif"
    r"|line|pragma|error)\b")


def die(message, status=2):
    print(f"piglit_tf_list.py: error: {message}", file=sys.stderr)
    sys.exit(status)


def source_text_is_tf(text):
    lower = text.lower()
    if not any(word in lower for word in SOURCE_TF_WORDS):
        return False
    return SOURCE_TF.search(strip_comments(text)) is not None


def strip_comments(text):
    """Source text without /* */, // and shader_runner '#' comment lines."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return "\n".join(line for line in text.split("\n")
                     if not line.lstrip().startswith("#")
                     or GLSL_PREPROCESSOR.match(line.lstrip()))


class Test:
    def __init__(self, profile, name, kind, argv):
        self.profile, self.name, self.kind = profile, name, kind
        self.argv = argv            # as run, relative to the piglit directory
        self.result, self.seconds = None, 0.0
        self.must_call_tf = False   # kept only if it calls a TF entry point
        self.tf_calls = set()       # TF entry points it resolved when run

    @property
    def line(self):
        return " ".join(self.argv)


def profiles(piglit):
    meta = piglit / "tests" / "all.meta.xml"
    if meta.exists():
        names = [p.text.strip() for p in ET.parse(meta).getroot().iter("Profile")]
        if names:
            return names
    return DEFAULT_PROFILES


def read_profile(piglit, profile):
    path = piglit / "tests" / f"{profile}.xml.gz"
    if not path.exists():
        die(f"{path} is missing: is the piglit package complete?")
    with gzip.open(path) as f:
        root = ET.parse(f).getroot()
    for test in root.iter("Test"):
        options = {o.get("name"): o.get("value") for o in test.iter("option")}
        if "command" not in options:
            continue            # asm_parser tests (ARB assembly): never TF
        yield test.get("name"), test.get("type"), ast.literal_eval(options["command"])


def dynamic_symbols(binary):
    out = subprocess.run(["nm", "-D", str(binary)], capture_output=True, text=True)
    return {f[-1] for f in (l.split() for l in out.stdout.splitlines()) if f}


def begins_tf_query(binary):
    """Whether the x86-64 code loads GL_PRIMITIVES_GENERATED (0x8c87) or
    GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN (0x8c88) into the first argument
    register at most 4 instructions before calling glBeginQuery, glEndQuery or
    their Indexed forms."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(binary)],
                         capture_output=True, text=True).stdout
    insns = [l for l in out.splitlines() if INSN.match(l)]
    return any(TF_QUERY_TARGET.search(l)
               and any(QUERY_CALL.search(n) for n in insns[i + 1:i + 5])
               for i, l in enumerate(insns))


def binary_tf_evidence(binary):
    """How a compiled test shows TF: "code" (TF shader syntax or extension
    names in its strings, or a TF query it begins), "symbols" (it links TF
    dispatch entry points: whether it calls them is seen only when it runs),
    or None."""
    symbols = dynamic_symbols(binary)
    if BINARY_STRINGS_TF.search(binary.read_bytes()):
        return "code"
    if "piglit_dispatch_glBeginQuery" in symbols and begins_tf_query(binary):
        return "code"
    if any(SYMBOL_TF.match(s) for s in symbols):
        return "symbols"
    return None


def discover(piglit, jobs, log):
    """TF candidates in profile order, plus the commands left out as unwritable."""
    entries = []                         # (profile, name, type, argv)
    for profile in profiles(piglit):
        entries += [(profile, *e) for e in read_profile(piglit, profile)]

    gl_bins = sorted({argv[0] for _, _, kind, argv in entries
                      if kind not in ("shader", "multi_shader", "glsl_parser")})
    gl_bins = [b for b in gl_bins if (piglit / "bin" / b).is_file()]
    log(f"discover: {len(entries)} tests in {len(profiles(piglit))} profiles; "
        f"checking {len(gl_bins)} binaries with nm -D (and objdump -d)")
    with concurrent.futures.ThreadPoolExecutor(max(jobs, 4)) as pool:
        evidence = dict(zip(gl_bins, pool.map(
            lambda b: binary_tf_evidence(piglit / "bin" / b), gl_bins)))

    source_cache = {}

    def source_is_tf(rel):
        if rel not in source_cache:
            path = piglit / rel
            source_cache[rel] = path.is_file() and source_text_is_tf(
                path.read_text(errors="replace"))
        return source_cache[rel]

    candidates = []
    for profile, name, kind, argv in entries:
        if kind == "multi_shader":
            continue                     # one process for many files: not a line
        if kind in ("shader", "glsl_parser"):
            tf = len(argv) > 1 and source_is_tf(argv[1])
        else:
            if not (piglit / "bin" / argv[0]).is_file():
                continue                 # not built in this package
            tf = evidence.get(argv[0]) is not None
        if not tf and not NAME_TF.search(name) and not NAME_TF.search(argv[0]):
            continue
        argv = [a for a in argv if a != ""]     # a line cannot hold ''
        if kind == "glsl_parser":
            run_argv = list(argv)
        else:
            run_argv = [a for a in argv if a not in ("-auto", "-fbo")] + ["-auto", "-fbo"]
        test = Test(profile, name, kind, run_argv)
        # Only linked TF entry points, no name saying TF: it must call one.
        test.must_call_tf = (kind not in ("shader", "glsl_parser")
                             and evidence.get(argv[0]) == "symbols"
                             and not NAME_TF.search(name) and not NAME_TF.search(argv[0]))
        candidates.append(test)

    # A binary run with several argument sets, some of which name TF: keep those.
    by_binary = {}
    for t in candidates:
        if t.kind not in ("shader", "glsl_parser"):
            by_binary.setdefault(t.argv[0], []).append(t)
    dropped = set()
    for tests in by_binary.values():
        named = [t for t in tests if any(ARG_TF.search(a) for a in t.argv[1:-2])]
        if named and len(named) < len(tests):
            dropped |= {id(t) for t in tests if t not in named}
    candidates = [t for t in candidates if id(t) not in dropped]

    seen, unique, unwritable = set(), [], []
    for t in candidates:
        if any(re.search(r"\s", a) for a in t.argv):
            unwritable.append(t)
        elif t.line not in seen:
            seen.add(t.line)
            unique.append(t)
    return unique, unwritable


# Preloaded into each compiled test: logs the TF entry points it resolves
# (piglit resolves a GL function at its first call) to $PIGLIT_TF_LIST_LOG.
TF_CALL_LOGGER = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*proc)(void);

static void note(const char *name)
{
	const char *path = getenv("PIGLIT_TF_LIST_LOG");
	FILE *f;

	if (!name || !path || !strstr(name, "TransformFeedback"))
		return;
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", name);
		fclose(f);
	}
}

static void *real_dlsym(void *handle, const char *name)
{
	static void *(*real)(void *, const char *);

	if (!real)
		real = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!real)
		real = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	return real ? real(handle, name) : NULL;
}

void *dlsym(void *handle, const char *name)
{
	note(name);
	return real_dlsym(handle, name);
}

#define FORWARD(fn, type)						\
	proc fn(type name);						\
	proc fn(type name)						\
	{								\
		proc (*real)(type) = (proc (*)(type))real_dlsym(RTLD_NEXT, #fn); \
		note((const char *)name);				\
		return real ? real(name) : NULL;			\
	}
FORWARD(glXGetProcAddressARB, const unsigned char *)
FORWARD(glXGetProcAddress, const unsigned char *)
FORWARD(eglGetProcAddress, const char *)
"""


def build_tf_call_logger(directory):
    """Compiles TF_CALL_LOGGER into directory; its path."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        die("cc is missing: install gcc (the TF call logger is compiled here)")
    src, lib = directory / "tf_call_logger.c", directory / "tf_call_logger.so"
    src.write_text(TF_CALL_LOGGER)
    out = subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(lib), str(src), "-ldl"],
                         capture_output=True, text=True)
    if out.returncode:
        die(f"cannot compile the TF call logger:\n{out.stderr}")
    return lib


def piglit_env(piglit):
    env = dict(os.environ)
    env.update(PIGLIT_PLATFORM="surfaceless_egl", PIGLIT_SOURCE_DIR=str(piglit),
               LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="llvmpipe")
    return env


RUNNING = set()         # process groups of the tests running now
RUNNING_LOCK = threading.Lock()


def kill_running():
    with RUNNING_LOCK:
        for proc in RUNNING:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def run_one(piglit, env, test, timeout, logger, logdir):
    start = time.monotonic()
    log = logdir / f"{threading.get_ident()}.log"
    log.unlink(missing_ok=True)
    if test.kind not in ("shader", "glsl_parser"):
        env = dict(env, PIGLIT_TF_LIST_LOG=str(log),
                   LD_PRELOAD=" ".join(filter(None, [str(logger), env.get("LD_PRELOAD")])))
    with RUNNING_LOCK:
        proc = subprocess.Popen([str(piglit / "bin" / test.argv[0])] + test.argv[1:],
                                cwd=piglit, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, errors="replace", start_new_session=True)
        RUNNING.add(proc)
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        test.result = "timeout"
    else:
        result = None
        for text in reversed(stdout.splitlines()):
            if text.startswith("PIGLIT: "):
                try:
                    report = json.loads(text[len("PIGLIT: "):])
                except ValueError:
                    continue
                if isinstance(report, dict) and "result" in report:
                    result = report["result"]
                    break
        if proc.returncode < 0:
            result = "crash"
        elif result is None:
            result = "noresult"
        elif result == "pass" and proc.returncode != 0:
            result = f"pass-but-exit-{proc.returncode}"
        if log.exists():
            test.tf_calls = set(log.read_text().split())
        if result == "pass" and test.must_call_tf and not test.tf_calls:
            result = "calls-no-tf"
        test.result = result
    finally:
        with RUNNING_LOCK:
            RUNNING.discard(proc)
    test.seconds = time.monotonic() - start
    return test


def renderer(piglit, env):
    glinfo = piglit / "bin" / "glinfo"
    if not glinfo.is_file():
        die(f"{glinfo} is missing: cannot check the renderer")
    out = subprocess.run([str(glinfo), "-auto", "-fbo"], cwd=piglit, env=env,
                         capture_output=True, text=True, timeout=60).stdout
    info = dict(re.findall(r"^(GL_RENDERER|GL_VERSION) = (.*)$", out, re.M))
    if "llvmpipe" not in info.get("GL_RENDERER", ""):
        die("glinfo did not report an llvmpipe renderer "
            f"(GL_RENDERER={info.get('GL_RENDERER')!r}): is Mesa installed?")
    return info


def package_version(path):
    try:
        owner = subprocess.run(["dpkg-query", "-S", str(path)], capture_output=True,
                               text=True).stdout.split(":")[0].strip()
        if owner:
            version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", owner],
                                     capture_output=True, text=True).stdout.strip()
            return f"{owner} {version}"
    except OSError:
        pass
    return "unknown (not a dpkg package)"


def regenerate_command(args):
    words = ["scripts/piglit_tf_list.py"]
    if args.piglit != DEFAULT_PIGLIT:
        words += ["--piglit", str(args.piglit)]
    if args.timeout != DEFAULT_TIMEOUT:
        words += ["--timeout", str(args.timeout)]
    if args.output != DEFAULT_OUTPUT:
        out = args.output
        try:
            out = out.relative_to(REPO)
        except ValueError:
            pass
        words += ["-o", str(out)]
    return " ".join(shlex.quote(w) for w in words)


def main():
    parser = argparse.ArgumentParser(
        description="Find the transform-feedback tests of the installed piglit, "
        "run each on Mesa llvmpipe (surfaceless EGL) and write those that pass, "
        "one command per line, to the list that tests/integration reads.",
        epilog="The discovery rule is in this script's docstring. Exit status: "
        "0 written, 1 nothing passed, 2 piglit/binutils/llvmpipe missing or bad "
        "argument.")
    parser.add_argument("--piglit", type=pathlib.Path, default=DEFAULT_PIGLIT,
                        metavar="DIR",
                        help="installed piglit directory (with bin/ and tests/); "
                        "default: %(default)s")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        metavar="N", help="tests run at once; default: the number "
                        "of CPUs (%(default)s)")
    parser.add_argument("-o", "--output", type=pathlib.Path, default=DEFAULT_OUTPUT,
                        metavar="FILE", help="where to write the list ('-' for "
                        "standard output); default: tests/integration/piglit_tf.txt "
                        "in this repository")
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, metavar="S",
                        help="seconds one test may run before it counts as a "
                        "timeout (not kept); default: %(default)s")
    parser.add_argument("--discover-only", action="store_true",
                        help="print the TF candidates (one command per line, "
                        "'# profile test-name' comment before each) without "
                        "running them, and exit")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    if args.timeout < 1:
        parser.error("--timeout must be at least 1")
    args.piglit = args.piglit.resolve()
    if str(args.output) != "-":
        args.output = args.output.resolve()

    if not (args.piglit / "bin").is_dir() or not (args.piglit / "tests").is_dir():
        die(f"no piglit at {args.piglit} (want bin/ and tests/): install Debian's "
            "piglit package (apt-get install piglit) or pass --piglit DIR")
    for tool in ("nm", "objdump"):
        if shutil.which(tool) is None:
            die(f"{tool} is missing: install binutils")

    def log(message):
        print(message, file=sys.stderr, flush=True)

    started = time.monotonic()
    candidates, unwritable = discover(args.piglit, args.jobs, log)
    counts = {}
    for t in candidates:
        counts[t.profile] = counts.get(t.profile, 0) + 1
    log(f"discover: {len(candidates)} TF candidates ("
        + ", ".join(f"{p} {n}" for p, n in counts.items())
        + f"), {len(unwritable)} left out (argument with white space)"
        + f", {time.monotonic() - started:.1f} s")
    if not candidates:
        die("no TF test found: is this a piglit installation?")

    if args.discover_only:
        for t in candidates:
            print(f"# {t.profile} {t.name}\n{t.line}")
        return 0

    env = piglit_env(args.piglit)
    info = renderer(args.piglit, env)
    log(f"run: {info.get('GL_RENDERER')}, {info.get('GL_VERSION')}; "
        f"{len(candidates)} tests, -j {args.jobs}, timeout {args.timeout} s")

    done, lock, run_start = 0, threading.Lock(), time.monotonic()

    workdir = pathlib.Path(tempfile.mkdtemp(prefix="piglit_tf_list."))
    logger = build_tf_call_logger(workdir)

    def task(test):
        nonlocal done
        run_one(args.piglit, env, test, args.timeout, logger, workdir)
        with lock:
            done += 1
            log(f"[{done:4d}/{len(candidates)}] {test.result:8s} "
                f"{test.seconds:6.1f}s  {test.line}")

    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    try:
        for future in [pool.submit(task, t) for t in candidates]:
            future.result()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        kill_running()
        raise
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    pool.shutdown()
    run_seconds = time.monotonic() - run_start

    results = {}
    for t in candidates:
        results[t.result] = results.get(t.result, 0) + 1
    kept = [t for t in candidates if t.result == "pass"]
    if not kept:
        die("no TF test passed: is the GL stack working?", 1)

    piglit_version = package_version(args.piglit)
    swrast = pathlib.Path("/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so")
    mesa_version = package_version(swrast) if swrast.exists() else "unknown"
    kept_counts = {}
    for t in kept:
        kept_counts[t.profile] = kept_counts.get(t.profile, 0) + 1
    header = [
        "piglit transform-feedback tests that pass on Mesa llvmpipe, one command",
        "per line (binary relative to <piglit>/bin, run from <piglit> with",
        "PIGLIT_PLATFORM=surfaceless_egl PIGLIT_SOURCE_DIR=<piglit>).",
        "Made by scripts/piglit_tf_list.py (its docstring gives the TF rule); do",
        "not edit by hand.  Regenerate from the repository root with:",
        f"  {regenerate_command(args)}",
        f"piglit: {args.piglit}, package {piglit_version}",
        f"Mesa: {info.get('GL_VERSION')}; {info.get('GL_RENDERER')}; "
        f"package {mesa_version}",
        f"Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"Candidates: {len(candidates)} ("
        + ", ".join(f"{p} {n}" for p, n in counts.items()) + "); results: "
        + ", ".join(f"{r} {n}" for r, n in sorted(results.items())),
        f"Kept: {len(kept)} ("
        + ", ".join(f"{p} {n}" for p, n in kept_counts.items()) + ")",
    ]
    lines = [f"# {h}" if h else "#" for h in header]
    lines += [t.line for t in kept]
    left_out = [t for t in candidates if t.result != "pass"]
    if left_out or unwritable:
        lines.append("#")
        lines.append("# TF candidates not kept (result: command; calls-no-tf: links TF entry")
        lines.append("# points but called none when run):")
        lines += [f"# {t.result}: {t.line}" for t in left_out]
        lines += [f"# not runnable as one line: {shlex.join(t.argv)}"
                  for t in unwritable]
    text = "\n".join(lines) + "\n"

    if str(args.output) == "-":
        sys.stdout.write(text)
    else:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=args.output.parent, delete=False,
                                         prefix=args.output.name + ".") as f:
            f.write(text)
        os.replace(f.name, args.output)
        os.chmod(args.output, 0o644)
    log(f"done: {len(kept)} of {len(candidates)} pass; "
        + ", ".join(f"{r} {n}" for r, n in sorted(results.items()))
        + f"; run {run_seconds:.0f} s, total {time.monotonic() - started:.0f} s"
        + ("" if str(args.output) == "-" else f"; wrote {args.output}"))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        die("interrupted; the output file was not changed", 130)

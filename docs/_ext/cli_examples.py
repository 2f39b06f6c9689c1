"""One example for each command of the command line, shown on its reference page.

Apart from :mod:`cliref` (the Sphinx directive that shows them) so that the
test suite can check, without Sphinx, that every command has one.
"""

# An example per command: a command line and what the program prints. Each
# command is one the README or docs/guide.md shows with the same output, which
# tests/test_readme.py runs (tests/test_docs.py checks that they are).
EXAMPLES = {
    "enumerate": """\
$ polyforms enumerate 10 --kind free --count
4655
$ polyforms enumerate 6 --lattice triangle --kind free --count
12
$ polyforms enumerate 4 --kind free
##
##

##
#.
#.

#.
##
#.

#.
##
.#

#
#
#
#
$ polyforms enumerate 7 --kind free --format svg -o heptominoes.svg""",
    "draw": """\
$ polyforms tile 6x10 --pieces pentominoes --limit 12 --format jsonl -o some.jsonl
$ polyforms draw some.jsonl --columns 4 --cell 16 --palette colour-blind -o some.svg""",
    "solve": """\
$ cat knuth.dlx
| example
a b c d e f | g
c e
a d g
b c f
a d f
b g
d e g
$ polyforms solve knuth.dlx
c e
a d f
b g

$ polyforms solve knuth.dlx --count
1""",
    "tile": """\
$ polyforms tile 6x10 --pieces pentominoes --count --distinct
2339
$ polyforms tile 6x10 --pieces pentominoes --limit 1
FIIIIIZUUU
FFFYZZZUXU
LFYYZNWXXX
LPPYTNWWXV
LPPYTNNWWV
LLPTTTNVVV
""",
    "calendar": """\
$ polyforms calendar Dec 25 --count
92""",
    "studio": """\
$ polyforms studio puzzle.json     # prints and opens http://127.0.0.1:PORT/#token=...""",
}

"""rulecraft's fuzzing suite (issue #11): generated and damaged inputs of every kind the
project reads, each run in a forked worker within a time and memory budget.

    python -m tests.fuzz --count 20000 --seed 1 --jobs 2     # the long run
    pytest -q tests/test_fuzz.py                              # the small seeded run

docs/FUZZING.md describes the categories, the outcomes and how to replay a failure.
"""

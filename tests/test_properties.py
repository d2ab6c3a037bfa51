"""Property-based tests: printing and reparsing keeps the AST; the compiled evaluator agrees with
the reference evaluator; the parser answers any text with an AST or diagnostics, nothing else."""

from __future__ import annotations

from hypothesis import assume, example, given
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.selector.compiler import compile_selector
from jmsctl.selector.parser import parse
from jmsctl.selector.reference import evaluate
from jmsctl.selector.unparser import unparse
from tests.strategies import conditions, messages, token_soup


@given(conditions())
def test_unparse_then_parse_gives_the_same_ast(ast) -> None:
    text = unparse(ast)
    assert parse(text) == ast, text


@given(conditions())
def test_generated_selectors_are_valid(ast) -> None:
    analysis = sel.analyze(unparse(ast))
    assert analysis.valid, [d.message for d in analysis.errors]


@given(conditions(), messages(), st.sampled_from(["jakarta", "ibm"]))
def test_compiled_evaluator_agrees_with_reference(ast, view, dialect) -> None:
    text = unparse(ast)
    assume(sel.analyze(text).valid)
    fast = compile_selector(ast, dialect)(view.get)
    slow = evaluate(ast, view.get, dialect).result
    assert fast is slow, f"{text} on {view}: compiled {fast}, reference {slow}"


@given(conditions(), messages())
def test_public_compile_agrees_with_reference(ast, view) -> None:
    text = unparse(ast)
    compiled = sel.compile(text)
    assert compiled.evaluate(view) is evaluate(compiled.ast, view.get).result


@given(st.one_of(st.text(max_size=60), token_soup))
@example("x = 1 AND (((((")
@example("'")
@example("\x00")
@example("x IN ('a',,)")
def test_any_text_gives_an_ast_or_diagnostics(text) -> None:
    analysis = sel.analyze(text)
    if analysis.valid:
        # a valid selector also prints and reparses to the same AST
        assert parse(unparse(analysis.ast)) == analysis.ast
        sel.compile(text)
    else:
        for d in analysis.errors:
            assert 0 <= d.span.start <= d.span.end <= len(text)
            assert d.code[0] == "E" and d.message

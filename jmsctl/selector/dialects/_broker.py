"""The rules ActiveMQ Classic and Artemis share: both parse with the same JavaCC grammar and
evaluate with the same ``filter`` package (Artemis forked it from ActiveMQ), so each switch here
cites both sources. ``AMQ`` is apache/activemq, ``ART`` apache/activemq-artemis."""

from __future__ import annotations

AMQ_JJ = "apache/activemq activemq-client/src/main/grammar/SelectorParser.jj"
ART_JJ = "apache/activemq-artemis artemis-selector/src/main/javacc/StrictParser.jj"
AMQ_F = "apache/activemq activemq-client/src/main/java/org/apache/activemq/filter/"
ART_F = "apache/activemq-artemis artemis-selector/src/main/java/org/apache/activemq/artemis/selector/filter/"

SHARED_SWITCHES = {
    "grammar": "javacc",
    "not_binds_tighter": True,
    "chained_comparisons": True,
    "ascii_identifiers": True,
    "line_comments": True,
    "block_comments": True,
    "evaluation": "java",
    "integer_division_truncates": False,
}

SHARED_EVIDENCE = {
    "grammar": f"{AMQ_JJ}, {ART_JJ}: JmsSelector() is orExpression() with no <EOF>, so text after a complete "
               "expression is not read; NULL is a literal; '%' is an operator; IN lists and LIKE patterns are "
               "string literals only; XPATH/XQUERY are reserved words",
    "not_binds_tighter": f"{AMQ_JJ} unaryExpr(): <NOT> unaryExpr() sits beside '-' below multExpr(), so "
                         "NOT a = 1 is (NOT a) = 1",
    "chained_comparisons": f"{AMQ_JJ} equalityExpression(): ( '=' | '<>' | IS [NOT] NULL )* loops; "
                           "comparisonExpression(): ( '>' ... | LIKE | BETWEEN | IN )* loops",
    "ascii_identifiers": f"{AMQ_JJ} <ID: ['a'-'z','_','$'] (['a'-'z','0'-'9','_','$'])*> with IGNORE_CASE",
    "line_comments": f"{AMQ_JJ} SKIP <LINE_COMMENT: '--' (~['\\n','\\r'])* ('\\n'|'\\r'|'\\r\\n')>: "
                     "only a comment that ends with a line break is skipped",
    "block_comments": f"{AMQ_JJ} SKIP <BLOCK_COMMENT: '/*' ... '*/'>",
    "evaluation": f"{AMQ_F}ComparisonExpression.java compare(): unlike classes compare FALSE unless the left one "
                  "widens to the right one (Short vs Byte is FALSE); ArithmeticExpression.java: int/long/double "
                  "arithmetic, String + anything concatenates, other non-numbers throw; "
                  "UnaryExpression.java: negating a Byte or Short throws, a non-number negates to NULL; "
                  "IN on a non-String is NULL, LIKE on a non-String is FALSE; "
                  f"ConstantExpression.java: decimal literals are Integer, Long or BigDecimal, 'L' is stripped, "
                  "hex and octal go through Long.parseLong (0xFFFFFFFF is the Long 4294967295), "
                  "floating literals are Double; the same in "
                  f"{ART_F}",
    "integer_division_truncates": f"{AMQ_F}ArithmeticExpression.java divide(): left.doubleValue() / right.doubleValue()",
}

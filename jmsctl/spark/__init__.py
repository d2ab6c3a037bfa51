"""jmsctl on Apache Spark: the only package that imports pyspark (tests/test_architecture.py).

    schema.py    the message layout (DataFrame and parquet), and how a decoded message fills it
    typed.py     typed values and conditions as Columns        javaops.py  Java's numeric rules on Columns
    arith.py     arithmetic nodes and the stack machine        like.py     LIKE without Spark's LIKE
    compiler.py  selector AST -> one Column (``compile_column``)
    ranges.py    byte ranges of local NDJSON files             ingest.py   files -> DataFrames
    session.py   the SparkSession                              job.py      filter / convert / explain

Import the submodules (``from jmsctl.spark.compiler import compile_column``); this package
itself imports nothing, so that ``import jmsctl.spark`` costs nothing without pyspark.
"""

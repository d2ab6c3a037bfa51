"""Shared test settings: hypothesis profiles (ci is the default; JMSCTL_FUZZ=long for long runs), the one
live broker and the one Spark session of the test run, and the ``slow`` marker of the quick subset
(``python -m pytest -m "not slow"``, README "Tests and corpora")."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("JMSCTL_FUZZ", "ci"))

# Modules that start a JVM inside the pytest process (JPype, for the JMS transport of a live broker)
# run last: a process with a JVM in it cannot fork safely (a forked child can hang on a lock a JVM
# thread held), and the parallel filter's tests fork. jmsctl itself then reads in one process
# (filter/parallel.py available()), which would leave the parallel path untested after them.
JVM_IN_PROCESS = ("test_brokers_live.py", "test_brokers_hardened.py")


# The quick subset for development, ``python -m pytest -m "not slow"``: what starts a JVM, a broker, a
# shell or a benchmark, and the longest tests of the other modules (from ``--durations``), are marked
# ``slow`` here. CI runs everything (``python -m pytest``).
SLOW_MODULES = frozenset({
    "test_actions_live.py", "test_activemq_differential.py", "test_artemis_bench_smoke.py", "test_artemis_xml_differential.py",
    "test_bench_smoke.py", "test_brokers_hardened.py", "test_brokers_live.py", "test_completion.py", "test_filter_bench_smoke.py",
    "test_identifiers_java.py", "test_parallel_jvm.py", "test_profile_bench_smoke.py", "test_scan_memory.py", "test_spark.py",
    "test_spark_artemis_xml.py", "test_spark_cluster.py", "test_spark_dialects.py", "test_spark_filter_options.py",
    "test_spark_parity.py", "test_spark_profile.py", "test_view.py", "test_properties.py",
})
# The tests of the other modules that took a second or more (every parameter of them): a run at load 5-8
# with -m "not slow" and --durations of a whole run (2026-11-28). Module -> test functions.
SLOW_TESTS: dict[str, tuple[str, ...]] = {
    "test_artemis_harness_modes.py": ('test_numeric_and_string_delivery_modes_map_to_amq_durable',),
    "test_artemis_sample.py": ('test_filter_reads_the_sample',),
    "test_artemis_xml.py": ('test_cli_reads_gzip_and_stdin_and_names_the_format', 'test_memory_is_flat_on_many_messages', 'test_round_trip_through_artemis_xml_loses_nothing_it_can_hold',),
    "test_artemis_xml_partial.py": ('test_random_documents_and_selectors', 'test_select_passes_on_the_same_records', 'test_the_command_reports_what_it_reads_and_what_it_passes_on', 'test_unread_messages_are_never_selected_and_hide_no_break', 'test_unread_on_damaged_and_deviant_documents', 'test_unread_with_any_block_size_and_a_small_size_limit',),
    "test_artemis_xml_scan.py": ('test_deviations_and_damage', 'test_flipped_bytes_and_cuts', 'test_random_documents',),
    "test_brokers_offline.py": ('test_an_unknown_provider_is_one_line', 'test_compare_refuses_the_options_it_would_ignore', 'test_the_login_comes_from_the_environment_and_a_refusal_is_one_line',),
    "test_chunk_scanner.py": ('test_line_scanner_equals_line_test',),
    "test_cli.py": ('test_check_samples_selectors_are_valid_and_bad_ones_invalid', 'test_colour_on_a_terminal_only_and_never_with_no_color', 'test_filter_loads_no_other_command', 'test_lazy_commands_show_what_registered_commands_show', 'test_module_entry_point_runs',),
    "test_cli_issue35.py": ('test_a_selector_check_warns_about_warns_once_on_stderr_and_quiet_silences_it', 'test_after_double_dash_an_option_is_a_missing_file_and_nothing_is_written', 'test_the_dash_hint_shows_a_command_that_runs', 'test_the_warning_comes_before_the_messages',),
    "test_cli_usability.py": ('test_every_option_with_choices_shows_them', 'test_java_check_says_what_was_found_and_what_is_needed', 'test_spark_command_with_a_bad_java_home_is_one_error_line',),
    "test_columns.py": ('test_any_boolean_shape_equals_plain_path', 'test_columns_equal_plain_path',),
    "test_convert.py": ('test_round_trip_through_fmtn_a_loses_nothing_it_can_hold',),
    "test_fastpath.py": ('test_cli_fast_equals_plain_on_samples', 'test_cli_jobs_in_a_subprocess', 'test_fast_equals_plain_on_adversarial_lines', 'test_keys_unique_is_a_proof', 'test_the_path_decode_never_changes_a_verdict_on_a_valid_line', 'test_workers_write_the_output_themselves_in_order',),
    "test_fix.py": ('test_fixing_twice_changes_nothing_and_gives_back_the_meant_selector', 'test_scan_fix_rewrites_the_tree_in_place_as_after_keeping_modes',),
    "test_format_fmtn_a.py": ('test_elements_stream_in_constant_memory',),
    "test_formats.py": ('test_dump_readers_stream_in_constant_memory', 'test_from_overrides_detection_and_an_unknown_name_is_a_usage_error',),
    "test_header_ranges.py": ('test_jobs_reject_them',),
    "test_hostile_cli.py": ('test_a_reader_that_goes_away_ends_it_quietly', 'test_a_string_literal_that_is_not_utf8_is_explained', 'test_check_reports_at_most_the_diagnostics_limit_per_selector', 'test_closed_descriptors', 'test_ctrl_c_while_reading_exits_130_without_a_trace', 'test_ctrl_c_while_writing_exits_130_without_a_trace', 'test_full_diagnostics_show_a_window_of_a_long_line', 'test_validate_into_head_ends_quietly',),
    "test_hostile_records.py": ('test_a_100_mb_line_is_rejected_without_holding_it', 'test_fuzz_broken_array_items', 'test_fuzz_broken_ndjson_lines', 'test_fuzz_chunks_agree_with_records', 'test_fuzz_filter_fast_path_agrees_with_plain_path',),
    "test_hostile_selectors.py": ('test_a_hundred_thousand_item_in_list_works', 'test_a_one_megabyte_selector_works_and_a_broken_one_is_diagnosed', 'test_every_edge_value_against_every_other_never_raises', 'test_fuzz_evaluation_on_hostile_messages', 'test_fuzz_mutated_selectors', 'test_fuzz_repeated_fragments', 'test_ten_thousand_chained_terms_work', 'test_ten_thousand_nested_parentheses_of_one_operator_are_one_chain',),
    "test_loader_jsonkeys.py": ('test_duplicates_match_the_reference',),
    "test_outputs.py": ('test_count_with_output_writes_the_count_and_keeps_the_file_on_error', 'test_spark_filter_killed_mid_job_leaves_no_partial_directory',),
    "test_parse_table.py": ('test_both_tables_parse_every_corpus_selector_alike',),
    "test_portability.py": ('test_check_portability_formats_and_strict',),
    "test_profile.py": ('test_profile_of_sample_adds_up',),
    "test_profile_cli.py": ('test_documents_follow_the_published_schema', 'test_peak_memory_does_not_grow_with_the_dump', 'test_rejected_records_are_located_and_counted', 'test_table_is_plain_when_piped', 'test_unreadable_input_writes_nothing',),
    "test_readme.py": ('test_readme_example_runs',),
    "test_rejections.py": ('test_a_big_csv_with_jobs_is_one_error_and_leaves_no_worker',),
    "test_solver.py": ('test_generated_differential', 'test_overlap_matrix_agrees_with_the_solver_on_each_pair', 'test_random_differential',),
}
_SLOW = frozenset(f"{module}::{test}" for module, tests in SLOW_TESTS.items() for test in tests)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: left out of the quick subset (pytest -m 'not slow'); CI runs every test")


def pytest_collection_modifyitems(items: list) -> None:
    items.sort(key=lambda item: item.path.name in JVM_IN_PROCESS)  # stable: the order is kept otherwise
    for item in items:
        if item.path.name in SLOW_MODULES or f"{item.path.name}::{item.originalname}" in _SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """One live ActiveMQ for the session (tests/activemq_broker.py), shared by the broker test modules."""
    from tests import activemq_broker

    reason = activemq_broker.missing()
    if reason is not None:
        pytest.skip(reason)
    b = activemq_broker.Broker(tmp_path_factory.mktemp("activemq"))
    try:
        b.wait()
        yield b
    finally:
        b.stop()


@pytest.fixture(scope="session")
def spark() -> Any:
    """One local Spark session for every test that needs one: its JVM starts once a run (``get_session``
    returns the active session; nothing stops it before the end)."""
    from jmsctl.spark.session import get_session

    return get_session("local[2]")

"""Shared test settings: hypothesis profiles (ci is the default; JMSCTL_FUZZ=long for long runs), the one
live broker and the one Spark session of each test process (two: pyproject.toml runs pytest-xdist), and the ``slow`` marker of the quick subset
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
# test_actions_live.py fills its queues over JMS from the pytest process, so it starts one as well.
JVM_IN_PROCESS = ("test_actions_live.py", "test_brokers_live.py", "test_brokers_hardened.py")


# The quick subset for development, ``python -m pytest -m "not slow"``: what starts a JVM, a broker, a
# shell or a benchmark, and the longest tests of the other modules (from ``--durations``), are marked
# ``slow`` here. CI runs everything (``python -m pytest``).
SLOW_MODULES = frozenset({
    "test_actions_live.py", "test_activemq_differential.py", "test_artemis_bench_smoke.py", "test_artemis_xml_differential.py",
    "test_bench_smoke.py", "test_brokers_carried.py", "test_brokers_cds.py", "test_brokers_hardened.py", "test_brokers_live.py", "test_completion.py", "test_filter_bench_smoke.py",
    "test_identifiers_java.py", "test_parallel_jvm.py", "test_profile_bench_smoke.py", "test_scan_memory.py", "test_spark.py",
    "test_spark_artemis_xml.py", "test_spark_cluster.py", "test_spark_dialects.py", "test_spark_filter_options.py",
    "test_spark_parity.py", "test_spark_profile.py", "test_view.py", "test_properties.py", "test_view_live.py",
})
# The tests of the other modules that took 1 s or more (1.5 s, all their parameters together, in a second
# run) in runs of -m "not slow" at load 5-8, or that a whole run's --durations listed (2026-11-28; -m 'not slow' at load 7.7 added test_broker_encoding's three
# longest and six more of 1.5 s or more).
# Module -> test functions.
SLOW_TESTS: dict[str, tuple[str, ...]] = {
    "test_architecture.py": ('test_rich_and_typer_only_in_the_cli', 'test_base_modules_import_downwards_only', 'test_lark_is_imported_only_by_the_parse_stage', 'test_selector_and_messages_never_import_each_other',),
    "test_artemis_harness_modes.py": ('test_numeric_and_string_delivery_modes_map_to_amq_durable',),
    "test_artemis_sample.py": ('test_filter_reads_the_sample',),
    "test_artemis_xml.py": ('test_cli_reads_gzip_and_stdin_and_names_the_format', 'test_memory_is_flat_on_many_messages', 'test_round_trip_through_artemis_xml_loses_nothing_it_can_hold',),
    "test_artemis_xml_partial.py": ('test_random_documents_and_selectors', 'test_select_passes_on_the_same_records', 'test_the_command_reports_what_it_reads_and_what_it_passes_on', 'test_unread_messages_are_never_selected_and_hide_no_break', 'test_unread_on_damaged_and_deviant_documents', 'test_unread_with_any_block_size_and_a_small_size_limit',),
    "test_artemis_xml_scan.py": ('test_deviations_and_damage', 'test_flipped_bytes_and_cuts', 'test_random_documents',),
    "test_broker_encoding.py": ('test_proofs_agree_with_the_bounded_search', 'test_the_encoding_gives_the_evaluators_verdict_on_random_selectors_and_messages', 'test_the_encoding_gives_the_measured_verdicts_of_the_conformance_cases',),
    "test_brokers_offline.py": ('test_an_unknown_provider_is_one_line', 'test_compare_refuses_the_options_it_would_ignore', 'test_the_login_comes_from_the_environment_and_a_refusal_is_one_line',),
    "test_chunk_scanner.py": ('test_line_scanner_equals_line_test',),
    "test_cli.py": ('test_check_samples_selectors_are_valid_and_bad_ones_invalid', 'test_colour_on_a_terminal_only_and_never_with_no_color', 'test_filter_loads_no_other_command', 'test_lazy_commands_show_what_registered_commands_show', 'test_module_entry_point_runs',),
    "test_cli_issue35.py": ('test_a_selector_check_warns_about_warns_once_on_stderr_and_quiet_silences_it', 'test_after_double_dash_an_option_is_a_missing_file_and_nothing_is_written', 'test_the_dash_hint_shows_a_command_that_runs', 'test_the_root_and_every_command_help_has_an_example', 'test_the_warning_comes_before_the_messages', 'test_usage_errors_are_one_line_exit_2',),
    "test_cli_usability.py": ('test_each_command_help_fits_80_columns_with_arity_choices_and_an_example', 'test_every_option_with_choices_shows_them', 'test_java_check_says_what_was_found_and_what_is_needed', 'test_spark_command_with_a_bad_java_home_is_one_error_line', 'test_top_level_help_lists_every_command_once_grouped_on_one_line', 'test_usage_shows_the_real_arity', 'test_why_or_lists_every_failed_operand_and_and_only_the_first',),
    "test_columns.py": ('test_columns_of_one_kind_equal_plain_path', 'test_any_boolean_shape_equals_plain_path', 'test_columns_equal_plain_path',),
    "test_convert.py": ('test_round_trip_through_fmtn_a_loses_nothing_it_can_hold',),
    "test_fastpath.py": ('test_cli_fast_equals_plain_on_samples', 'test_cli_jobs_in_a_subprocess', 'test_fast_equals_plain_on_adversarial_lines', 'test_jobs_equal_one_job', 'test_keys_unique_is_a_proof', 'test_schema_base64_no_laxer_than_the_loader', 'test_the_path_decode_never_changes_a_verdict_on_a_valid_line', 'test_workers_write_after_what_the_parent_buffered', 'test_workers_write_the_output_themselves_in_order',),
    "test_fix.py": ('test_fixing_twice_changes_nothing_and_gives_back_the_meant_selector', 'test_scan_diff_is_applied_by_git_apply', 'test_scan_fix_rewrites_the_tree_in_place_as_after_keeping_modes', 'test_scan_like_decides_w016',),
    "test_format_activemq_browse.py": ('test_cli_warns_once_and_types_make_numeric_comparisons_work',),
    "test_format_fmtn_a.py": ('test_cli_counts_add_up_and_errors_name_position_and_id', 'test_elements_stream_in_constant_memory',),
    "test_format_samples.py": ('test_explain_finds_a_dump_record_by_the_position_its_location_prints', 'test_readme_dump_format_examples_run_from_the_repository_root',),
    "test_formats.py": ('test_dump_readers_stream_in_constant_memory', 'test_from_is_on_every_command_that_reads_messages', 'test_from_overrides_detection_and_an_unknown_name_is_a_usage_error',),
    "test_header_ranges.py": ('test_jobs_reject_them',),
    "test_hostile_cli.py": ('test_a_reader_that_goes_away_ends_it_quietly', 'test_a_string_literal_that_is_not_utf8_is_explained', 'test_check_reports_at_most_the_diagnostics_limit_per_selector', 'test_closed_descriptors', 'test_ctrl_c_while_reading_exits_130_without_a_trace', 'test_ctrl_c_while_writing_exits_130_without_a_trace', 'test_full_diagnostics_show_a_window_of_a_long_line', 'test_validate_into_head_ends_quietly',),
    "test_hostile_records.py": ('test_a_100_mb_line_is_rejected_without_holding_it', 'test_fuzz_broken_array_items', 'test_fuzz_broken_ndjson_lines', 'test_fuzz_chunks_agree_with_records', 'test_fuzz_filter_fast_path_agrees_with_plain_path',),
    "test_hostile_selectors.py": ('test_a_hundred_thousand_item_in_list_works', 'test_a_megabyte_of_one_thing', 'test_a_one_megabyte_selector_works_and_a_broken_one_is_diagnosed', 'test_analyze_is_linear', 'test_every_edge_value_against_every_other_never_raises', 'test_fuzz_evaluation_on_hostile_messages', 'test_fuzz_mutated_selectors', 'test_fuzz_repeated_fragments', 'test_fuzz_token_soup', 'test_ten_thousand_chained_terms_work', 'test_ten_thousand_nested_levels_of_real_nesting_name_the_limit', 'test_ten_thousand_nested_parentheses_of_one_operator_are_one_chain', 'test_ten_thousand_nested_parentheses_work',),
    "test_pairwise.py": ('test_differential_against_the_full_solver_and_the_engine', 'test_extended_differential', 'test_repaired_differential', 'test_never_differential',),
    "test_like.py": ('test_like_agrees_with_regex_reference',),
    "test_loader_jsonkeys.py": ('test_deeper_than_any_recursion_limit', 'test_duplicates_match_the_reference', 'test_never_raises_on_any_bytes',),
    "test_onename.py": ('test_exact_answers_hold_on_the_pool_and_agree_with_z3',),
    "test_outputs.py": ('test_count_with_output_writes_the_count_and_keeps_the_file_on_error', 'test_filter_to_a_fifo_with_a_reader', 'test_filter_to_a_symlink_keeps_the_link_and_the_mode', 'test_filter_to_dev_null_and_dev_full', 'test_killed_mid_write_leaves_no_temp_file_and_no_output', 'test_spark_filter_killed_mid_job_leaves_no_partial_directory', 'test_workers_die_with_their_parent',),
    "test_parse_table.py": ('test_both_tables_parse_every_corpus_selector_alike',),
    "test_portability.py": ('test_bounded_on_big_selectors', 'test_check_portability_formats_and_strict', 'test_explain_has_a_portability_section',),
    "test_portfolio.py": ('test_cvc5_and_z3_agree_and_cvc5_models_read_back', 'test_floating_point_that_z3_gave_up_on_gets_a_witness',),
    "test_profile.py": ('test_hll_estimate_within_four_standard_errors', 'test_profile_memory_is_bounded_per_name', 'test_profile_of_sample_adds_up',),
    "test_profile_cli.py": ('test_documents_follow_the_published_schema', 'test_json_document_adds_up_and_matches_the_messages', 'test_peak_memory_does_not_grow_with_the_dump', 'test_rejected_records_are_located_and_counted', 'test_table_has_colour_on_a_terminal_only', 'test_table_is_plain_when_piped', 'test_unreadable_input_writes_nothing',),
    "test_readme.py": ('test_readme_example_runs',),
    "test_rejections.py": ('test_a_big_csv_with_jobs_is_one_error_and_leaves_no_worker',),
    "test_samples_readme.py": ('test_samples_readme_example_runs',),
    "test_scan.py": ('test_portability_on_selectors_known_whole', 'test_exit_codes_and_strict',),
    "test_scan_cuts.py": ('test_a_trigger_word_is_never_cut_out', 'test_cut_text_reports_what_the_whole_file_does', 'test_json_sarif_and_fix_of_a_large_file',),
    "test_scan_fix_more.py": ('test_scan_fix_leaves_quoted_names_in_a_file_written_for_artemis', 'test_diff_applies_to_bom_latin1_and_symlinked_files_from_outside_the_repo', 'test_scan_records_destinations_and_overlap_groups_by_them',),
    "test_sets_cli.py": ('test_unknown_is_exit_3_never_a_proof',),
    "test_solver.py": ('test_generated_differential', 'test_never_by_parts_is_checked_on_messages', 'test_overlap_matrix_agrees_with_the_solver_on_each_pair', 'test_overlap_over_disjoint_names_is_unknown_when_one_alone_is', 'test_random_differential',),
    "test_solver_budget.py": ('test_the_rlimit_is_what_bounds_a_question', 'test_the_same_answers_beside_a_cpu_hog',),
    "test_startup_imports.py": ('test_the_completion_table_is_typers', 'test_heavy_modules_stay_out_of_commands_that_do_not_use_them',),
    "test_view_bench_smoke.py": ('test_view_bench_runs_and_agrees',),
    "test_view_live.py": ('test_view_browses_a_queue_and_r_browses_it_again',),
    "test_view_snapshots.py": ('test_a_mistake_and_its_caret', 'test_explanation_of_the_selected_message', 'test_first_screen',),
    "test_view_tmux.py": ('test_view_in_tmux_mistake_fix_counts_explanation_write',),
    "test_witness_valid.py": ('test_every_witness_is_a_valid_message',),
}
_SLOW = frozenset(f"{module}::{test}" for module, tests in SLOW_TESTS.items() for test in tests)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: left out of the quick subset (pytest -m 'not slow'); CI runs every test")


# The test run is two processes (pytest-xdist, ``-n 2 --dist loadgroup`` in pyproject.toml): each takes the
# next module (or the Spark session's group of modules, below) when it is free, in the order below, with xdist's own reordering off
# (``--no-loadscope-reorder``). The longest modules go first (a whole run's --durations, 2026-11-28), so
# that no long one starts last while the other process has nothing left to do; the modules that start a
# JVM in the pytest process go last, so a process that took one takes only those after it. A module
# named in neither keeps its place (alphabetical) in between.
LONGEST_FIRST = (
    "test_spark_cluster.py", "test_spark_parity.py", "test_spark.py", "test_view.py", "test_fastpath.py",
    "test_hostile_selectors.py", "test_hostile_cli.py", "test_spark_artemis_xml.py", "test_properties.py",
    "test_spark_dialects.py", "test_broker_encoding.py",
)
_RANK = {name: rank for rank, name in enumerate(LONGEST_FIRST)}

# The modules that use the ``spark`` fixture run one after the other in one process (one xdist group,
# ``--dist loadgroup``): one Spark JVM started and warmed up a run instead of one in each process (its
# start and its JIT's work on Spark's code cost each process 10-15 s on two busy cores). Every other
# module is a group of its own, as with ``--dist loadfile``.
SPARK_SESSION_MODULES = (
    "test_spark_parity.py", "test_spark.py", "test_spark_artemis_xml.py", "test_spark_dialects.py",
    "test_spark_filter_options.py", "test_spark_profile.py",
)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups
def pytest_collection_modifyitems(items: list) -> None:
    items.sort(key=lambda item: (item.path.name in JVM_IN_PROCESS, _RANK.get(item.path.name, len(_RANK))))  # stable otherwise
    for item in items:
        if item.path.name in SLOW_MODULES or f"{item.path.name}::{item.originalname}" in _SLOW:
            item.add_marker(pytest.mark.slow)
        item.add_marker(pytest.mark.xdist_group("spark-session" if item.path.name in SPARK_SESSION_MODULES else item.path.name))


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

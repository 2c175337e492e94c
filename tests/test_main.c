/* One cmocka run over every group, so the suite ends with one summary.
 * MM_TESTS=PATTERN runs only the tests whose names match it (cmocka's filter:
 * '*' and '?' wildcards), e.g. MM_TESTS='*deterministic*'. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define GROUP(name)                                    \
    extern const struct CMUnitTest name##_tests[];     \
    extern const size_t name##_tests_count;
GROUP(host)
GROUP(measure)
GROUP(telemetry)
GROUP(experiment)
GROUP(plan)
GROUP(estimate)
GROUP(damaged)
GROUP(results)
GROUP(report)
GROUP(derive)
GROUP(claims)
GROUP(suite)
GROUP(cli)
GROUP(races)
GROUP(rungpus)
GROUP(badinput)
GROUP(limits)
GROUP(faults)
GROUP(faults_io)
GROUP(gpu)
GROUP(figures)
GROUP(paper)
GROUP(history)
GROUP(readme)
GROUP(reproduce)
GROUP(slurm)
GROUP(layers)

int main(void)
{
    const struct CMUnitTest *groups[] = {host_tests, measure_tests, telemetry_tests,
                                         experiment_tests, plan_tests, estimate_tests,
                                         damaged_tests, results_tests, report_tests, derive_tests,
                                         claims_tests, suite_tests, cli_tests, races_tests,
                                         rungpus_tests, badinput_tests, limits_tests, faults_tests,
                                         faults_io_tests, gpu_tests, figures_tests, paper_tests,
                                         history_tests, readme_tests, reproduce_tests, slurm_tests,
                                         layers_tests};
    const size_t counts[] = {host_tests_count, measure_tests_count, telemetry_tests_count,
                             experiment_tests_count, plan_tests_count, estimate_tests_count,
                             damaged_tests_count, results_tests_count, report_tests_count,
                             derive_tests_count, claims_tests_count, suite_tests_count,
                             cli_tests_count, races_tests_count, rungpus_tests_count,
                             badinput_tests_count, limits_tests_count, faults_tests_count,
                             faults_io_tests_count, gpu_tests_count, figures_tests_count,
                             paper_tests_count, history_tests_count, readme_tests_count,
                             reproduce_tests_count, slurm_tests_count, layers_tests_count};
    size_t n = 0;
    for (size_t g = 0; g < sizeof counts / sizeof counts[0]; g++) n += counts[g];
    struct CMUnitTest *all = malloc(n * sizeof *all);
    if (!all) return 1;
    n = 0;
    for (size_t g = 0; g < sizeof counts / sizeof counts[0]; g++) {
        memcpy(all + n, groups[g], counts[g] * sizeof *all);
        n += counts[g];
    }
    const char *only = getenv("MM_TESTS");
    if (only && *only) cmocka_set_test_filter(only);
    int failed = _cmocka_run_group_tests("mmladder", all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}

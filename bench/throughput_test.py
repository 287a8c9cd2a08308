#!/usr/bin/env python3
"""Checks throughput.py's confidence interval of a median against the
binomial order-statistic tables it should reproduce."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import throughput  # noqa: E402


def coverage(n, k):
    """P(x_(k) <= median <= x_(n+1-k)) for n samples of any continuous law."""
    return 1.0 - 2.0 * sum(math.comb(n, i) for i in range(k)) / 2.0 ** n


class MedianInterval(unittest.TestCase):
    def test_known_order_statistics(self):
        # Standard table values (1-based ranks) of the 95% interval.
        for n, k in ((6, 1), (11, 2), (17, 5), (21, 6), (31, 10), (41, 14)):
            values = [float(v) for v in range(1, n + 1)]
            self.assertEqual(throughput.median_ci(values), (float(k), float(n + 1 - k)), n)

    def test_none_below_six(self):
        for n in range(1, 6):
            self.assertIsNone(throughput.median_ci([1.0] * n))

    def test_widest_rank_that_keeps_coverage(self):
        for n in range(6, 80):
            lo, _ = throughput.median_ci([float(v) for v in range(1, n + 1)])
            k = int(lo)
            self.assertGreaterEqual(coverage(n, k), 0.95, n)
            self.assertLess(coverage(n, k + 1), 0.95, n)

    def test_order_of_input_does_not_matter(self):
        values = [2.1, 1.9, 2.3, 2.0, 2.2, 1.8, 2.4, 2.05, 2.15, 1.95, 2.25]
        self.assertEqual(throughput.median_ci(values), throughput.median_ci(sorted(values)))


if __name__ == "__main__":
    unittest.main()

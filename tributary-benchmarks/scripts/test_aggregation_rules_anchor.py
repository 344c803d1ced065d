#!/usr/bin/env python3
"""Checks that aggregation_rules_anchor.py's Bulyan, with each distance computed once, gives the
bits of Flower's aggregate_bulyan (Krum's n x n distances recomputed for every pick).

Run: python3 -m unittest tributary-benchmarks/scripts/test_aggregation_rules_anchor.py
"""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aggregation_rules_anchor as anchor  # noqa: E402


def updates(clients, sizes, seed):
    rng = np.random.default_rng(seed)
    return [([rng.uniform(-1, 1, s).astype(np.float32) for s in sizes], int(rng.integers(1, 1001)))
            for _ in range(clients)]


class BulyanTest(unittest.TestCase):
    def assert_same_bits(self, results, f):
        ours = anchor.aggregate_bulyan(results, f)
        flower = anchor.aggregate_bulyan_flower(results, f)
        self.assertEqual(len(ours), len(flower))
        for a, b in zip(ours, flower):
            self.assertEqual(a.dtype, b.dtype)
            self.assertEqual(a.shape, b.shape)
            self.assertEqual(a.tobytes(), b.tobytes())

    def test_aggregate_bulyan_oneLayer_sameBitsAsFlower(self):
        self.assert_same_bits(updates(30, [20_000], 42), 5)

    def test_aggregate_bulyan_severalLayers_sameBitsAsFlower(self):
        self.assert_same_bits(updates(15, [300, 7, 1000], 7), 3)

    def test_aggregate_bulyan_outliersAndDuplicates_sameBitsAsFlower(self):
        results = updates(12, [500], 3)
        results[0] = ([results[0][0][0] * 50], results[0][1])  # an outlier Krum must not pick
        results[5] = ([results[4][0][0].copy()], results[5][1])  # two equal updates
        self.assert_same_bits(results, 2)

    def test_pairwise_squared_distances_matchesFlowersMatrix(self):
        weights = [w for w, _ in updates(9, [1000, 3], 11)]
        self.assertEqual(anchor.pairwise_squared_distances(weights).tobytes(),
                         anchor.squared_distances(weights).tobytes())


if __name__ == "__main__":
    unittest.main()

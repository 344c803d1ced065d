/**
 * The few JSON values Tributary writes ({@link io.tributary.learning.json.Json}): strings,
 * integers, doubles (NaN and the infinities as strings) and null, for {@code metrics.jsonl} and
 * the command line's outputs.
 */
package io.tributary.learning.json;

#!/usr/bin/env python3
"""Summarizes a Spark event log (uncompressed, spark.eventLog.compress=false) of one
`tributary simulate --engine local[N]|spark://...` run, for run-spark.sh.

Prints one JSON object: the jobs (one per client pass; a round of `simulate` runs three: its
`next`, the evaluation on the clients' training data, the one on the test pieces), each job's
duration and their sum (job submitted -> job ended, on the driver), and the tasks' own times as Spark's task metrics give
them: executorRunTime (the task's body: WorkerPass.compute, the replica's rebuild on first use
included), executorDeserializeTime, resultSerializationTime, the bytes of the tasks' results (the parts the driver merges), and the scheduler's share (launch ->
finish minus those three and the result fetch), plus the largest JVMHeapMemory each executor
reported (Spark's executor metrics; 0 when no heartbeat came during the run).

Usage: spark_eventlog.py EVENT_LOG_DIR_OR_FILE
"""
import glob
import json
import os
import sys


def events(path):
    files = [path] if os.path.isfile(path) else sorted(
        f for f in glob.glob(os.path.join(path, "**", "*"), recursive=True)
        if os.path.isfile(f) and not os.path.basename(f).startswith("appstatus"))
    for f in files:
        with open(f) as fh:
            for line in fh:
                line = line.strip()
                if line:
                    yield json.loads(line)


def main():
    jobs_start, jobs_end = {}, {}
    run = deser = ser = sched = getting = 0
    tasks = 0
    result_bytes = 0
    wall_tasks = 0
    heap = {}
    for e in events(sys.argv[1]):
        kind = e["Event"]
        if kind == "SparkListenerJobStart":
            jobs_start[e["Job ID"]] = e["Submission Time"]
        elif kind == "SparkListenerJobEnd":
            jobs_end[e["Job ID"]] = e["Completion Time"]
        elif kind == "SparkListenerTaskEnd":
            info = e["Task Info"]
            acc = {a["Name"]: a.get("Update", 0) for a in info.get("Accumulables", [])}
            r = acc.get("internal.metrics.executorRunTime", 0)
            d = acc.get("internal.metrics.executorDeserializeTime", 0)
            s = acc.get("internal.metrics.resultSerializationTime", 0)
            g = info.get("Getting Result Time", 0)
            g = info["Finish Time"] - g if g else 0
            span = info["Finish Time"] - info["Launch Time"]
            tasks += 1
            result_bytes += acc.get("internal.metrics.resultSize", 0)
            run += r
            deser += d
            ser += s
            getting += g
            wall_tasks += span
            sched += max(0, span - r - d - s - g)
            m = e.get("Task Executor Metrics") or {}
            ex = info["Executor ID"]
            heap[ex] = max(heap.get(ex, 0), m.get("JVMHeapMemory", 0))
        elif kind in ("SparkListenerStageExecutorMetrics",):
            ex = e["Executor ID"]
            heap[ex] = max(heap.get(ex, 0), e["Executor Metrics"].get("JVMHeapMemory", 0))
        elif kind == "SparkListenerExecutorMetricsUpdate":
            ex = e["Executor ID"]
            for u in e.get("Executor Metrics Updated", []) or []:
                heap[ex] = max(heap.get(ex, 0), u.get("Executor Metrics", {}).get("JVMHeapMemory", 0))
    durations = [jobs_end[j] - jobs_start[j] for j in sorted(jobs_start) if j in jobs_end]
    print(json.dumps({
        "jobs": len(durations),
        "job_ms": sum(durations),
        "each_job_ms": durations,
        "tasks": tasks,
        "task_run_ms": run,
        "task_deserialize_ms": deser,
        "task_result_serialize_ms": ser,
        "task_result_fetch_ms": getting,
        "task_scheduler_ms": sched,
        "result_bytes": result_bytes,
        "peak_heap_bytes": heap,
    }))


if __name__ == "__main__":
    main()

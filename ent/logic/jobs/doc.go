// Package jobs records the runs of this service's background jobs as
// NetBox's core.Job rows (/api/core/jobs/): one row per run, written as
// it starts (running) and as it ends (completed, or errored with the
// error). The scheduled housekeeping (change-log retention, session
// pruning, webhook cleanup) and data source syncs (package datasources)
// run through it. It imports only the generated ent client; nothing here
// schedules: the callers' gocron schedulers do.
package jobs

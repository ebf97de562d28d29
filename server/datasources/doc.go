// Package datasources syncs NetBox's data sources (core.DataSource) into
// their data files (core.DataFile): a local directory below the
// operator's root, or a git repository (go-git, in process; http(s)
// remotes through the webhooks' address guard, repositories on the
// server's disk below the same root). A sync is a recorded job (package
// jobs): POST .../sync/ queues it, the engine's poll (gocron) runs queued
// syncs and the sources whose sync_interval is due. A sync reads
// everything first, within the limits of Config, then writes all files
// and the data source's new state in one tracked transaction (a change
// record of the data source), or nothing; a source that cannot be read
// leaves status "failed" and the job's error.
//
// It imports the generated client, the database and webhooks (the
// tracked write and the guarded dialer); server and cmd import it.
package datasources

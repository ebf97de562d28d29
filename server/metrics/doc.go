// Package metrics exposes the service's Prometheus metrics: requests by
// route pattern and status with their latency, the database pools, webhook
// deliveries by state, the outbox lag, change records written, and the Go
// runtime and process.
//
// Each server has its own registry (tests start many servers in one
// process). Figures that describe the shared database (deliveries, outbox)
// are read from it at scrape time, so every replica reports the same;
// figures of one process (requests, change records it wrote, its pools)
// are counted in memory. Access is guarded by Guard: a bearer token or an
// allow-list of client networks, never the API's users and permissions, so
// that a scraper needs no account.
package metrics

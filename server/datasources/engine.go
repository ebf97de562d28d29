package datasources

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/datafile"
	"github.com/inventory/inventory/ent/datasource"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/job"
	"github.com/inventory/inventory/ent/logic/core"
	"github.com/inventory/inventory/ent/logic/hookguard"
	"github.com/inventory/inventory/ent/logic/jobs"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/webhooks"
)

// SyncJob is the name of a sync's job (NetBox's SyncDataSourceJob).
const SyncJob = "Synchronization"

// ObjectType is the content type of data sources (a sync job's object).
const ObjectType = "core.datasource"

// The statuses of a data source (NetBox's DataSourceStatusChoices).
const (
	StatusNew       = "new"
	StatusQueued    = "queued"
	StatusSyncing   = "syncing"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// ErrDisabled refuses a sync of a disabled data source.
var ErrDisabled = errors.New("This data source is disabled.")

// Engine syncs data sources.
type Engine struct {
	db     *db.DB
	cfg    Config
	policy *core.Policy
}

// New builds the engine over d and makes every write of a data source
// through d's client check its URL against cfg (root, allow-list).
func New(d *db.DB, cfg Config) (*Engine, error) {
	cfg = cfg.withDefaults()
	g, err := hookguard.NewGuard(cfg.AllowedTargets)
	if err != nil {
		return nil, err
	}
	e := &Engine{db: d, cfg: cfg, policy: &core.Policy{Root: cfg.Root, Guard: g}}
	installPolicy(d.Client, e.policy)
	installTransport(g, cfg)
	return e, nil
}

// Config is the engine's configuration, defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// policies carries each client's data source policy into the writes of
// data sources, where core.DataSourceHooks check URLs against it.
var policies = &webhooks.ClientValue[core.Policy]{With: core.WithPolicy}

func installPolicy(c *ent.Client, p *core.Policy) { policies.Install(c, c.DataSource.Use, p) }

// The git transport is go-git's global protocol table: http and https
// go through one client whose dialer checks every address with the
// guard of the engine built last, and whose responses are bounded.
var (
	gitGuard     atomic.Pointer[hookguard.Guard]
	gitLimit     atomic.Int64
	gitTransport sync.Once
)

func installTransport(g *hookguard.Guard, cfg Config) {
	gitGuard.Store(g)
	gitLimit.Store(cfg.MaxTotalSize)
	gitTransport.Do(func() {
		dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
			return webhooks.GuardedDialer(gitGuard.Load(), 30*time.Second)(ctx, network, addr)
		}
		hc := &http.Client{
			Transport: limitTransport{&http.Transport{
				Proxy:                 nil, // a proxy would bypass the address check
				DialContext:           dial,
				TLSHandshakeTimeout:   30 * time.Second,
				ResponseHeaderTimeout: time.Minute,
				ForceAttemptHTTP2:     true,
			}},
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) >= 3 {
					return errors.New("stopped after 3 redirects")
				}
				return nil // every hop is dialled through the guard
			},
		}
		client.InstallProtocol("http", githttp.NewClient(hc))
		client.InstallProtocol("https", githttp.NewClient(hc))
	})
}

// limitTransport bounds every response body to the data source size
// limit (a clone's pack is one response).
type limitTransport struct{ rt http.RoundTripper }

func (t limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: gitLimit.Load()}
	return resp, nil
}

type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errors.New("the repository download exceeds the data source size limit")
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// setStatus writes a data source's status as NetBox does, with a
// queryset update: no change record, no event.
func (e *Engine) setStatus(ctx context.Context, id int, status string) error {
	return e.db.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
		q := "UPDATE core_datasource SET status = ? WHERE id = ?"
		if e.db.Dialect == "postgres" {
			q = "UPDATE core_datasource SET status = $1 WHERE id = $2"
		}
		_, err := tx.ExecContext(ctx, q, status, id)
		return err
	})
}

// Enqueue queues a sync of the data source id for the user (nil: the
// scheduler): a pending job, and the source's status "queued".
func (e *Engine) Enqueue(ctx context.Context, id int, userID *int) (*ent.Job, error) {
	ds, err := e.db.Client.DataSource.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ds.Enabled {
		return nil, ErrDisabled
	}
	interval := 0
	if userID == nil && ds.SyncInterval != nil {
		interval = *ds.SyncInterval
	}
	j, err := jobs.Enqueue(ctx, e.db.Client, jobs.Spec{Name: SyncJob, ObjectType: ObjectType, ObjectID: id,
		Interval: interval, UserID: userID})
	if err != nil {
		return nil, err
	}
	return j, e.setStatus(ctx, id, StatusQueued)
}

// RunOnce queues the syncs whose sync_interval is due, then runs every
// queued sync (tests call it directly; Start runs it every
// PollInterval).
func (e *Engine) RunOnce(ctx context.Context) error {
	if err := e.queueDue(ctx); err != nil {
		return err
	}
	pending, err := e.db.Client.Job.Query().
		Where(job.NameEQ(SyncJob), job.ObjectTypeEQ(ObjectType), job.StatusEQ(jobs.StatusPending)).
		Order(job.ByID()).All(ctx)
	if err != nil {
		return err
	}
	for _, j := range pending {
		err := jobs.Start(ctx, e.db.Client, j, func(ctx context.Context, l *jobs.Log) error {
			return e.sync(ctx, j, l)
		})
		if errors.Is(err, jobs.ErrClaimed) {
			continue // another worker runs it
		}
		if err != nil && ctx.Err() == nil {
			slog.Warn("data source sync", "data_source", *j.ObjectID, "error", err)
		}
	}
	return nil
}

// queueDue queues a sync of every enabled source with a sync_interval
// whose last sync (or creation) is that long ago and that is not queued
// or syncing already.
func (e *Engine) queueDue(ctx context.Context) error {
	due, err := e.db.Client.DataSource.Query().
		Where(datasource.Enabled(true), datasource.SyncIntervalNotNil(),
			datasource.StatusNotIn(StatusQueued, StatusSyncing)).All(ctx)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	for _, ds := range due {
		last := ds.LastSynced
		if last == nil {
			last = ds.Created
		}
		if last != nil && now.Sub(*last) < time.Duration(*ds.SyncInterval)*time.Minute {
			continue
		}
		if _, err := e.Enqueue(ctx, ds.ID, nil); err != nil && !ent.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// Start runs RunOnce every PollInterval on a gocron scheduler (singleton:
// a long sync is not overlapped) until ctx ends or stop is called.
func (e *Engine) Start(ctx context.Context) (stop func() error, err error) {
	s, err := gocron.NewScheduler()
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(gocron.DurationJob(e.cfg.PollInterval), gocron.NewTask(func() {
		if err := e.RunOnce(ctx); err != nil && ctx.Err() == nil {
			slog.Error("data source syncs", "error", err)
		}
	}), gocron.WithSingletonMode(gocron.LimitModeReschedule), gocron.WithStartAt(gocron.WithStartImmediately()),
		gocron.WithName("datasource-sync"))
	if err != nil {
		return nil, err
	}
	s.Start()
	var once sync.Once
	stop = func() error {
		var err error
		once.Do(func() { err = s.Shutdown() })
		return err
	}
	go func() { <-ctx.Done(); _ = stop() }()
	return stop, nil
}

// sync runs one sync job: read everything, then write it all.
func (e *Engine) sync(ctx context.Context, j *ent.Job, l *jobs.Log) error {
	id := *j.ObjectID
	ds, err := e.db.Client.DataSource.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := e.setStatus(ctx, id, StatusSyncing); err != nil {
		return err
	}
	files, err := e.fetch(ctx, ds)
	if err != nil {
		l.Warning("Sync failed: " + err.Error())
		if serr := e.setStatus(context.WithoutCancel(ctx), id, StatusFailed); serr != nil {
			return serr
		}
		return &jobs.Failure{Err: err}
	}
	stats, err := e.write(ctx, j, ds, files)
	if err != nil {
		_ = e.setStatus(context.WithoutCancel(ctx), id, StatusFailed)
		var fe *followError
		if errors.As(err, &fe) {
			l.Warning("Sync failed: " + err.Error())
			return &jobs.Failure{Err: err}
		}
		return err
	}
	l.Info(fmt.Sprintf("Synced %d files: %d created, %d updated, %d deleted; %d objects followed their files.", len(files), stats.Created, stats.Updated, stats.Deleted, stats.Followed))
	l.Data = stats
	return nil
}

// fetch reads a source within the limits and FetchTimeout.
func (e *Engine) fetch(ctx context.Context, ds *ent.DataSource) ([]file, error) {
	t, err := core.Resolve(e.policy, ds.Type, ds.SourceURL)
	if err != nil {
		var fe interface{ Error() string }
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("source_url: %s", fe.Error())
		}
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, e.cfg.FetchTimeout)
	defer cancel()
	c := newCollector(e.cfg, ds.IgnoreRules)
	if ds.Type == "git" {
		err = e.fetchGit(ctx, t, ds.Parameters, c)
	} else {
		err = fetchLocal(ctx, e.cfg, t.Path, c)
	}
	return c.files, err
}

// Stats is what a sync changed (the job's data).
type Stats struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
	Deleted int `json:"deleted"`
	// Followed counts the objects that took their file's content again.
	Followed int `json:"followed"`
}

// write replaces the source's files and records the sync on the data
// source (status completed, last_synced: a change record under the
// job's user and its job id as request id) in one transaction.
func (e *Engine) write(ctx context.Context, j *ent.Job, ds *ent.DataSource, files []file) (Stats, error) {
	var st Stats
	actor := webhooks.Actor{RequestID: j.JobID, UserID: j.UserID}
	if j.UserID != nil {
		if u, err := e.db.Client.User.Get(ctx, *j.UserID); err == nil {
			actor.Username = u.Username
		}
	}
	err := webhooks.Write(ctx, e.db, actor, func(ctx context.Context, tx *resource.Tx) error {
		st = Stats{}
		c := tx.Client
		old, err := c.DataFile.Query().Where(datafile.SourceID(ds.ID)).
			Select(datafile.FieldID, datafile.FieldPath, datafile.FieldHash).All(ctx)
		if err != nil {
			return err
		}
		byPath := make(map[string]*ent.DataFile, len(old))
		for _, f := range old {
			byPath[f.Path] = f
		}
		now := time.Now().UTC().Truncate(time.Microsecond)
		for _, f := range files {
			sum := sha256.Sum256(f.Data)
			hash := hex.EncodeToString(sum[:])
			prev, ok := byPath[f.Path]
			delete(byPath, f.Path)
			switch {
			case !ok:
				err = c.DataFile.Create().SetSourceID(ds.ID).SetPath(f.Path).SetSize(int64(len(f.Data))).
					SetHash(hash).SetData(f.Data).SetLastUpdated(now).SetCreated(now).Exec(ctx)
				st.Created++
			case prev.Hash != hash:
				err = c.DataFile.UpdateOneID(prev.ID).SetSize(int64(len(f.Data))).SetHash(hash).SetData(f.Data).
					SetLastUpdated(now).Exec(ctx)
				st.Updated++
			}
			if err != nil {
				return err
			}
		}
		gone := make([]int, 0, len(byPath))
		for _, f := range byPath {
			gone = append(gone, f.ID)
		}
		if len(gone) > 0 {
			if _, err := c.DataFile.Delete().Where(datafile.IDIn(gone...)).Exec(ctx); err != nil {
				return err
			}
			st.Deleted = len(gone)
		}
		if err := follow(ctx, tx, ds.ID, &st); err != nil {
			return err
		}
		return c.DataSource.UpdateOneID(ds.ID).SetStatus(StatusCompleted).SetLastSynced(now).Exec(ctx)
	})
	return st, err
}

// synced are the models that take content from data files, and whether
// one follows its file only when auto_sync_enabled says so (NetBox's
// AutoSyncRecord). Config contexts, export templates and config context
// profiles have no such field in NetBox's API, so here they always
// follow.
var synced = []struct {
	model, table string
	autoSyncOnly bool
}{
	{"extras.configtemplate", "extras_configtemplate", true},
	{"extras.configcontext", "extras_configcontext", false},
	{"extras.exporttemplate", "extras_exporttemplate", false},
	{"extras.configcontextprofile", "extras_configcontextprofile", false},
}

// followError is an object that cannot take its file's new content (a
// template that no longer parses): the sync fails, nothing is written.
type followError struct {
	model string
	id    int
	err   error
}

func (e *followError) Error() string {
	return fmt.Sprintf("%s %d cannot take its data file: %v", e.model, e.id, e.err)
}

func (e *followError) Unwrap() error { return e.err }

// follow re-syncs, in the sync's transaction, every object whose data
// file belongs to the source (NetBox's post_sync auto_sync): an update
// that assigns its file again, which the models' SyncedDataHooks turn
// into the file's content and data_synced, with a change record.
func follow(ctx context.Context, tx *resource.Tx, source int, st *Stats) error {
	for _, s := range synced {
		d := resource.ByContentType(s.model)
		q := "SELECT id, data_file_id FROM " + s.table + " WHERE data_source_id = ? AND data_file_id IS NOT NULL"
		if s.autoSyncOnly {
			q += " AND auto_sync_enabled"
		}
		q += " ORDER BY id"
		if tx.Dialect == "postgres" {
			q = strings.Replace(q, "?", "$1", 1)
		}
		rows, err := tx.Client.QueryContext(ctx, q, source)
		if err != nil {
			return err
		}
		var pairs [][2]int
		for rows.Next() {
			var p [2]int
			if err := rows.Scan(&p[0], &p[1]); err != nil {
				rows.Close()
				return err
			}
			pairs = append(pairs, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, p := range pairs {
			m := d.NewUpdate(tx.Client, p[0])
			if err := m.SetField("data_file_id", p[1]); err != nil {
				return err
			}
			if _, err := tx.Client.Mutate(ctx, m); err != nil {
				return &followError{model: s.model, id: p[0], err: err}
			}
			st.Followed++
		}
	}
	return nil
}

package webhooks

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-co-op/gocron/v2"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/jobs"
	"github.com/inventory/inventory/ent/objectchange"
)

// Prune deletes the change records older than days days (CHANGELOG_RETENTION)
// relative to now and returns how many went; days <= 0 keeps everything.
func Prune(ctx context.Context, c *ent.Client, days int, now time.Time) (int, error) {
	if days <= 0 {
		return 0, nil
	}
	cutoff := now.UTC().Add(-time.Duration(days) * 24 * time.Hour)
	return c.ObjectChange.Delete().Where(objectchange.TimeLT(cutoff)).Exec(ctx)
}

// RetentionJob is the name of the retention job's runs in /api/core/jobs/.
const RetentionJob = "Change log retention"

// RunRetention runs Prune once as a recorded job (a core.Job row).
func RunRetention(ctx context.Context, c *ent.Client, days int) error {
	return jobs.Run(ctx, c, jobs.Spec{Name: RetentionJob, Interval: 24 * 60}, func(ctx context.Context, l *jobs.Log) error {
		n, err := Prune(ctx, c, days, time.Now())
		if err != nil {
			return err
		}
		l.Info(fmt.Sprintf("Deleted %d change records older than %d days.", n, days))
		l.Data = map[string]any{"deleted": n, "days": days}
		if n > 0 {
			slog.Info("change log retention", "deleted", n, "days", days)
		}
		return nil
	})
}

// StartRetention runs Prune at start and then daily on a gocron scheduler,
// until Shutdown is called on the returned scheduler. days <= 0 schedules
// nothing and returns nil.
func StartRetention(ctx context.Context, c *ent.Client, days int) (gocron.Scheduler, error) {
	if days <= 0 {
		return nil, nil
	}
	s, err := gocron.NewScheduler()
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(gocron.DurationJob(24*time.Hour), gocron.NewTask(func() {
		if err := RunRetention(ctx, c, days); err != nil {
			slog.Error("change log retention", "err", err)
		}
	}), gocron.WithStartAt(gocron.WithStartImmediately()), gocron.WithSingletonMode(gocron.LimitModeReschedule), gocron.WithName("changelog-retention"))
	if err != nil {
		s.Shutdown()
		return nil, err
	}
	s.Start()
	return s, nil
}

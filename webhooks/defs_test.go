package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

// TestTransactionDefs: a write transaction reads the custom field
// definitions once (resource.WithTransactionDefs), yet a custom field
// created, changed or deleted in the same transaction is seen by the
// objects written after it.
func TestTransactionDefs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		site, cf := resource.ByContentType("dcim.site"), resource.ByContentType("extras.customfield")
		input := func(s string) resource.Input {
			var in resource.Input
			if err := json.Unmarshal([]byte(s), &in); err != nil {
				t.Fatal(err)
			}
			return in
		}
		err := webhooks.Write(ctx, e.DB, webhooks.Actor{Username: "test"}, func(ctx context.Context, tx *resource.Tx) error {
			// Reads the definitions (none) for dcim.site.
			if _, err := site.Create(ctx, tx, input(`{"name":"A","slug":"a"}`)); err != nil {
				t.Fatalf("site A: %v", err)
			}
			id, err := cf.Create(ctx, tx, input(`{"name":"floor","type":"text","object_types":["dcim.site"]}`))
			if err != nil {
				t.Fatalf("custom field: %v", err)
			}
			if _, err := site.Create(ctx, tx, input(`{"name":"B","slug":"b","custom_fields":{"floor":"2"}}`)); err != nil {
				t.Errorf("a site using the custom field created before it in the transaction: %v", err)
			}
			row, err := cf.Get(ctx, tx.Store(), id)
			if err != nil {
				t.Fatal(err)
			}
			if err := cf.Update(ctx, tx, row, input(`{"required":true}`), true); err != nil {
				t.Fatalf("custom field update: %v", err)
			}
			_, err = site.Create(ctx, tx, input(`{"name":"C","slug":"c"}`))
			var ve *resource.ValidationError
			if !errors.As(err, &ve) || !strings.Contains(fmt.Sprint(ve.Fields), "Missing required custom field 'floor'") {
				t.Errorf("a site without the custom field made required before it in the transaction: %v, want the missing field's error", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

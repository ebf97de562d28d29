package webhooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Receiver is the handler of `inventory webhook-receiver`: it prints each
// request (method, path, headers, body pretty-printed when JSON) to out
// and answers 200, like NetBox's webhook_receiver.
func Receiver(out io.Writer) http.Handler {
	var mu sync.Mutex
	n := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 10<<20))
		mu.Lock()
		defer mu.Unlock()
		n++
		fmt.Fprintf(out, "[%d] %s\n%s %s %s\n", n, time.Now().Format(time.RFC3339), r.Method, r.URL.RequestURI(), r.Proto)
		names := make([]string, 0, len(r.Header)+1)
		for k := range r.Header {
			names = append(names, k)
		}
		sort.Strings(names)
		fmt.Fprintf(out, "Host: %s\n", r.Host)
		for _, k := range names {
			for _, v := range r.Header[k] {
				fmt.Fprintf(out, "%s: %s\n", k, v)
			}
		}
		fmt.Fprintln(out)
		var pretty bytes.Buffer
		if len(body) == 0 {
			fmt.Fprintln(out, "(no body)")
		} else if json.Indent(&pretty, body, "", "    ") == nil {
			fmt.Fprintln(out, pretty.String())
		} else {
			fmt.Fprintln(out, string(body))
		}
		fmt.Fprintln(out, "------------")
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "Webhook received!")
	})
}

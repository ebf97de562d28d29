package netbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	netboxclient "github.com/fbreckle/go-netbox/netbox/client"
	httptransport "github.com/go-openapi/runtime/client"
	"github.com/goware/urlx"
	log "github.com/sirupsen/logrus"
)

// Config struct for the netbox provider
type Config struct {
	APIToken                    string
	ServerURL                   string
	AllowInsecureHTTPS          bool
	Headers                     map[string]interface{}
	RequestTimeout              int
	StripTrailingSlashesFromURL bool
	CACertFile                  string
}

// customHeaderTransport is a transport that adds the specified headers on
// every request.
type customHeaderTransport struct {
	original http.RoundTripper
	headers  map[string]interface{}
}

// Client does the heavy lifting of establishing a base Open API client to Netbox.
func (cfg *Config) Client() (*netboxclient.NetBoxAPI, error) {
	log.WithFields(log.Fields{
		"server_url": cfg.ServerURL,
	}).Debug("Initializing Netbox client")

	if cfg.APIToken == "" {
		return nil, fmt.Errorf("missing netbox API key")
	}

	// parse serverUrl
	parsedURL, urlParseError := urlx.Parse(cfg.ServerURL)
	if urlParseError != nil {
		return nil, fmt.Errorf("error while trying to parse URL: %s", urlParseError)
	}

	desiredRuntimeClientSchemes := []string{parsedURL.Scheme}
	log.WithFields(log.Fields{
		"host":    parsedURL.Host,
		"schemes": desiredRuntimeClientSchemes,
	}).Debug("Initializing Netbox Open API runtime client")

	// build http client
	clientOpts := httptransport.TLSClientOptions{
		CA:                 cfg.CACertFile,
		InsecureSkipVerify: cfg.AllowInsecureHTTPS,
	}

	trans, err := httptransport.TLSTransport(clientOpts)
	if err != nil {
		return nil, err
	}

	trans.(*http.Transport).Proxy = http.ProxyFromEnvironment

	if len(cfg.Headers) > 0 {
		log.WithFields(log.Fields{
			"custom_headers": cfg.Headers,
		}).Debug("Setting custom headers on every request to Netbox")

		trans = customHeaderTransport{
			original: trans,
			headers:  cfg.Headers,
		}
	}

	httpClient := &http.Client{
		Transport: trans,
		Timeout:   time.Second * time.Duration(cfg.RequestTimeout),
	}

	// Also apply request_timeout to the per-operation timeout, which otherwise
	// defaults to 30s independently of http.Client.Timeout.
	if cfg.RequestTimeout > 0 {
		httptransport.DefaultTimeout = time.Second * time.Duration(cfg.RequestTimeout)
	}

	transport := httptransport.NewWithClient(parsedURL.Host, parsedURL.Path+netboxclient.DefaultBasePath, desiredRuntimeClientSchemes, httpClient)
	authScheme := "Token"
	if strings.HasPrefix(cfg.APIToken, "nbt_") {
		authScheme = "Bearer"
	}
	transport.DefaultAuthentication = httptransport.APIKeyAuth("Authorization", "header", fmt.Sprintf("%s %v", authScheme, cfg.APIToken))
	transport.SetLogger(log.StandardLogger())
	netboxClient := netboxclient.New(transport, nil)

	return netboxClient, nil
}

// RoundTrip adds the headers specified in the transport on every request.
func (t customHeaderTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	for key, value := range t.headers {
		r.Header.Add(key, fmt.Sprintf("%v", value))
	}

	resp, err := t.original.RoundTrip(r)
	return resp, err
}

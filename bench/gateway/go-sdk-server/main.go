// The "official Go SDK" contestant of the gateway benchmark: what a team would write with
// github.com/modelcontextprotocol/go-sdk — one tool getPet({petId}) that calls
// GET /pets/{petId} on the backend with net/http, behind the SDK's StreamableHTTPHandler,
// stateless (no Mcp-Session-Id; it serves 2026-07-28 stateless requests) with JSON answers.
//
//	go-sdk-server <backend-url>   (prints `listening <url>`)
//
// Built and cached by bench/gateway/go-sdk-build.ts.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type petArgs struct {
	PetID int `json:"petId"`
}

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: go-sdk-server <backend-url>")
	}
	backendURL := os.Args[1]
	// As many kept-alive connections to the backend as the Node contestants' pools (64); the
	// default keeps 2 idle per host and would open a new connection for most calls.
	backend := &http.Client{
		Transport: &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second},
		Timeout:   10 * time.Second,
	}

	server := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-pets", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "getPet", Description: "Get a pet"},
		func(ctx context.Context, _ *mcp.CallToolRequest, args petArgs) (*mcp.CallToolResult, any, error) {
			request, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/pets/%d", backendURL, args.PetID), nil)
			if err != nil {
				return nil, nil, err
			}
			response, err := backend.Do(request)
			if err != nil {
				return nil, nil, err
			}
			defer response.Body.Close()
			body, err := io.ReadAll(response.Body)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{
				Content: []mcp.Content{&mcp.TextContent{Text: string(body)}},
				IsError: response.StatusCode >= 400,
			}, nil, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	fmt.Printf("listening http://%s/mcp\n", listener.Addr())
	log.Fatal(http.Serve(listener, mux))
}

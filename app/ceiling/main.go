// Command ceiling is the yardstick of `make bench`: a bare Fiber v3 handler making one
// database round trip per request (the TechEmpower single-query shape), on PostgreSQL through
// pgx or on SQLite through the same pure-Go driver Canvass uses. Whatever a Canvass page
// costs is compared with what this costs on the same machine in the same run.
//
//	ceiling -db postgres://... -addr 127.0.0.1:3100
//	ceiling -db sqlite:///path/to/file.db -addr 127.0.0.1:3100
//
// GET /db?n=41 answers {"n":42}.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite" // registers "sqlite", the driver Canvass uses
)

type answer struct {
	N int `json:"n"`
}

func main() {
	dbURL := flag.String("db", "", "postgres:// or sqlite:// URL")
	addr := flag.String("addr", "127.0.0.1:3100", "listen address")
	flag.Parse()

	var query func(ctx context.Context, n int) (int, error)
	switch {
	case strings.HasPrefix(*dbURL, "postgres://"), strings.HasPrefix(*dbURL, "postgresql://"):
		pool, err := pgxpool.New(context.Background(), *dbURL)
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		defer pool.Close()
		query = func(ctx context.Context, n int) (int, error) {
			var out int
			err := pool.QueryRow(ctx, "SELECT $1::int + 1", n).Scan(&out)
			return out, err
		}
	case strings.HasPrefix(*dbURL, "sqlite://"):
		path := strings.TrimPrefix(*dbURL, "sqlite://")
		db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		defer db.Close()
		db.SetMaxOpenConns(8) // as Canvass opens SQLite
		db.SetMaxIdleConns(8)
		stmt, err := db.Prepare("SELECT ? + 1")
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		query = func(ctx context.Context, n int) (int, error) {
			var out int
			err := stmt.QueryRowContext(ctx, n).Scan(&out)
			return out, err
		}
	default:
		log.Fatalf("ceiling: -db must be a postgres:// or sqlite:// URL, not %q", *dbURL)
	}

	app := fiber.New()
	app.Get("/db", func(c fiber.Ctx) error {
		n, _ := strconv.Atoi(c.Query("n", "1"))
		out, err := query(c, n)
		if err != nil {
			return fmt.Errorf("ceiling query: %w", err)
		}
		return c.JSON(answer{N: out})
	})
	log.Fatal(app.Listen(*addr, fiber.ListenConfig{DisableStartupMessage: true}))
}

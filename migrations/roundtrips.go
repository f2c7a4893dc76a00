package migrations

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"
	"sync/atomic"

	"gorm.io/gorm"
)

// Every connection Open makes goes through a counting wrapper of the real driver, so tests can
// hold each route to a budget of database round trips (a statement, a BEGIN, a COMMIT or
// ROLLBACK each count one) and a regression fails `make test`, not only `make bench`.
// Prepares are not counted: each pooled connection prepares a statement once, on first use,
// so whether a request pays one depends on which connection it drew. The cost is one atomic
// add per call.

// roundTrips maps each opened *sql.DB to its counter.
var roundTrips sync.Map // *sql.DB → *atomic.Int64

// RoundTrips is how many round trips the database behind db has made since it was opened
// (0 for a connection Open did not make).
func RoundTrips(db *gorm.DB) int64 {
	sqlDB, err := db.DB()
	if err != nil {
		return 0
	}
	if n, ok := roundTrips.Load(sqlDB); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

// countingDB opens a *sql.DB whose connections count their round trips.
func countingDB(d driver.Driver, dsn string) *sql.DB {
	n := new(atomic.Int64)
	db := sql.OpenDB(&countingConnector{driver: d, dsn: dsn, n: n})
	roundTrips.Store(db, n)
	return db
}

// driverNamed returns the driver registered under name (sql.Open connects nothing).
func driverNamed(name string) (driver.Driver, error) {
	db, err := sql.Open(name, "")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.Driver(), nil
}

type countingConnector struct {
	driver driver.Driver
	dsn    string
	n      *atomic.Int64
}

func (c *countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	var conn driver.Conn
	var err error
	if dc, ok := c.driver.(driver.DriverContext); ok {
		var connector driver.Connector
		if connector, err = dc.OpenConnector(c.dsn); err == nil {
			conn, err = connector.Connect(ctx)
		}
	} else {
		conn, err = c.driver.Open(c.dsn)
	}
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: conn, n: c.n}, nil
}

func (c *countingConnector) Driver() driver.Driver { return c.driver }

// countingConn passes every call to the real connection; where the real one lacks an optional
// interface it answers as database/sql expects of a driver without it (ErrSkip, nil, true).
type countingConn struct {
	driver.Conn
	n *atomic.Int64
}

func (c *countingConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var s driver.Stmt
	var err error
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		s, err = p.PrepareContext(ctx, query)
	} else {
		s, err = c.Conn.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &countingStmt{Stmt: s, n: c.n}, nil
}

func (c *countingConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.n.Add(1)
	var tx driver.Tx
	var err error
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		tx, err = b.BeginTx(ctx, opts)
	} else {
		tx, err = c.Conn.Begin() //nolint:staticcheck // the driver has nothing newer
	}
	if err != nil {
		return nil, err
	}
	return &countingTx{Tx: tx, n: c.n}, nil
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.n.Add(1)
	return e.ExecContext(ctx, query, args)
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.n.Add(1)
	return q.QueryContext(ctx, query, args)
}

func (c *countingConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		c.n.Add(1)
		return p.Ping(ctx)
	}
	return nil
}

func (c *countingConn) CheckNamedValue(v *driver.NamedValue) error {
	if ch, ok := c.Conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

func (c *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *countingConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

type countingStmt struct {
	driver.Stmt
	n *atomic.Int64
}

func (s *countingStmt) Exec(args []driver.Value) (driver.Result, error) {
	s.n.Add(1)
	return s.Stmt.Exec(args) //nolint:staticcheck // database/sql calls this only when the driver has nothing newer
}

func (s *countingStmt) Query(args []driver.Value) (driver.Rows, error) {
	s.n.Add(1)
	return s.Stmt.Query(args) //nolint:staticcheck // as Exec
}

func (s *countingStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	e, ok := s.Stmt.(driver.StmtExecContext)
	if !ok {
		return s.Exec(namedToValues(args))
	}
	s.n.Add(1)
	return e.ExecContext(ctx, args)
}

func (s *countingStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := s.Stmt.(driver.StmtQueryContext)
	if !ok {
		return s.Query(namedToValues(args))
	}
	s.n.Add(1)
	return q.QueryContext(ctx, args)
}

func (s *countingStmt) CheckNamedValue(v *driver.NamedValue) error {
	if ch, ok := s.Stmt.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

func namedToValues(args []driver.NamedValue) []driver.Value {
	out := make([]driver.Value, len(args))
	for i, a := range args {
		out[i] = a.Value
	}
	return out
}

type countingTx struct {
	driver.Tx
	n *atomic.Int64
}

func (t *countingTx) Commit() error   { t.n.Add(1); return t.Tx.Commit() }
func (t *countingTx) Rollback() error { t.n.Add(1); return t.Tx.Rollback() }

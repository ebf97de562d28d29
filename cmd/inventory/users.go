package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
)

// userCmd is `inventory user create|list|set-password|revoke-sessions`.
func userCmd(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: inventory user create|list|set-password|revoke-sessions [flags]")
	}
	sub, args := args[0], args[1:]
	o, fs := newOptions("user " + sub)
	username := fs.String("username", "", "username")
	password := fs.String("password", os.Getenv("INVENTORY_USER_PASSWORD"), "password (env INVENTORY_USER_PASSWORD)")
	email := fs.String("email", "", "email address (create)")
	superuser := fs.Bool("superuser", false, "make the user a superuser (create)")
	if err := o.parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	srv, closeDB, err := o.server(ctx)
	if err != nil {
		return err
	}
	defer closeDB()
	switch sub {
	case "create":
		if *username == "" {
			return errors.New("--username is required")
		}
		u, err := srv.CreateUser(ctx, *username, *password, *email, *superuser)
		if err != nil {
			return err
		}
		fmt.Printf("created user %s (id %d)\n", u.Username, u.ID)
	case "list":
		us, err := srv.Users(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tUSERNAME\tEMAIL\tACTIVE\tSUPERUSER")
		for _, u := range us {
			fmt.Fprintf(w, "%d\t%s\t%s\t%v\t%v\n", u.ID, u.Username, u.Email, u.IsActive, u.IsSuperuser)
		}
		return w.Flush()
	case "set-password":
		if *username == "" {
			return errors.New("--username is required")
		}
		if err := srv.SetPassword(ctx, *username, *password); err != nil {
			return err
		}
		fmt.Printf("password of %s changed\n", *username)
	case "revoke-sessions":
		if *username == "" {
			return errors.New("--username is required")
		}
		n, err := srv.RevokeSessions(ctx, *username)
		if err != nil {
			return err
		}
		fmt.Printf("%d sessions of %s ended\n", n, *username)
	default:
		return fmt.Errorf("unknown user command %q (want create, list, set-password or revoke-sessions)", sub)
	}
	return nil
}

// permissionCmd is `inventory permission grant`.
func permissionCmd(args []string) error {
	if len(args) == 0 || args[0] != "grant" {
		return errors.New("usage: inventory permission grant --name N --object-types app.model[,…] --actions view[,…] [--constraints JSON] [--users a,b] [--groups g]")
	}
	o, fs := newOptions("permission grant")
	name := fs.String("name", "", "permission name")
	types := fs.String("object-types", "", "comma-separated app.model list, e.g. ipam.prefix")
	actions := fs.String("actions", "view", "comma-separated actions: view, add, change, delete, or custom ones such as grant")
	constraints := fs.String("constraints", "", `constraints as JSON, e.g. {"tenant__slug": "blue"} (default: none)`)
	users := fs.String("users", "", "comma-separated usernames")
	groups := fs.String("groups", "", "comma-separated group names (created when missing)")
	if err := o.parse(fs, args[1:]); err != nil {
		return err
	}
	if *name == "" || *types == "" {
		return errors.New("--name and --object-types are required")
	}
	var raw json.RawMessage
	if *constraints != "" {
		if !json.Valid([]byte(*constraints)) {
			return errors.New("--constraints is not valid JSON")
		}
		raw = json.RawMessage(*constraints)
	}
	ctx := context.Background()
	srv, closeDB, err := o.server(ctx)
	if err != nil {
		return err
	}
	defer closeDB()
	p, err := srv.Grant(ctx, *name, splitList(*types), splitList(*actions), raw, splitList(*users), splitList(*groups))
	if err != nil {
		return err
	}
	fmt.Printf("created permission %q (id %d)\n", p.Name, p.ID)
	return nil
}

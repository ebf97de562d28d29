package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Instantiation of large types (issue 32): a device of a type with
// 10 000 interface templates, a module of a type with 1 000 components.
// Only the POST is timed; the types are built once per database.
//
//	go test -run xxx -bench 'Instantiate|InstallModule' ./server/

// BenchmarkInstantiateDevice10000Interfaces creates a device of a type
// with 10 000 interface templates through the API per iteration.
func BenchmarkInstantiateDevice10000Interfaces(b *testing.B) {
	for _, kind := range servertest.Databases(b) {
		e := servertest.New(b, kind)
		w := largeWorld(b, e)
		dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"], "model": "Big", "slug": "big"}))
		interfaceTemplates(b, e, dt, 0, 10000)
		n := 0
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				n++
				r := e.Do("POST", devPath, map[string]any{"name": fmt.Sprintf("big-%d", n), "device_type": dt, "role": w["r"], "site": w["s"]})
				if r.Status != http.StatusCreated {
					b.Fatalf("status %d: %.500s", r.Status, r.Body)
				}
			}
		})
	}
}

// BenchmarkInstallModule1000Components installs a module of a type with
// 1 000 interface templates into a fresh bay per iteration (the bay is
// made outside the timing).
func BenchmarkInstallModule1000Components(b *testing.B) {
	for _, kind := range servertest.Databases(b) {
		e := servertest.New(b, kind)
		w := largeWorld(b, e)
		dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"], "model": "Chassis", "slug": "chassis"}))
		mt := id(e.Must(http.StatusCreated, "POST", mtPath, map[string]any{"manufacturer": w["m"], "model": "Line card"}))
		interfaceTemplates(b, e, 0, mt, 1000)
		dev := id(e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": "chassis", "device_type": dt, "role": w["r"], "site": w["s"]}))
		n := 0
		b.Run(kind, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				n++
				bay := id(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": dev, "name": fmt.Sprintf("Slot %d", n), "position": fmt.Sprint(n)}))
				b.StartTimer()
				r := e.Do("POST", modPath, map[string]any{"device": dev, "module_bay": bay, "module_type": mt})
				if r.Status != http.StatusCreated {
					b.Fatalf("status %d: %.500s", r.Status, r.Body)
				}
			}
		})
	}
}

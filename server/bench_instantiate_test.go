package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Instantiation of large types (issue 32): a device of a type with
// 10 000 interface templates, a module of a type with 1 000 components;
// and of many devices at once (issue 37): 100 devices of a 52-interface
// type in one bulk POST. Only the POST is timed; the types are built once
// per database.
//
//	go test -run xxx -bench 'Instantiate|InstallModule|Create100Devices' ./server/
//
// Beside ns/op each reports the CPU time per operation of the process
// and, on PostgreSQL, of the database's backends (bench_cpu_test.go).

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
			cpu := newCPUMeter(b, e, kind)
			for i := 0; i < b.N; i++ {
				n++
				cpu.start()
				r := e.Do("POST", devPath, map[string]any{"name": fmt.Sprintf("big-%d", n), "device_type": dt, "role": w["r"], "site": w["s"]})
				cpu.stop()
				if r.Status != http.StatusCreated {
					b.Fatalf("status %d: %.500s", r.Status, r.Body)
				}
			}
			cpu.report()
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
			cpu := newCPUMeter(b, e, kind)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				n++
				bay := id(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": dev, "name": fmt.Sprintf("Slot %d", n), "position": fmt.Sprint(n)}))
				b.StartTimer()
				cpu.start()
				r := e.Do("POST", modPath, map[string]any{"device": dev, "module_bay": bay, "module_type": mt})
				cpu.stop()
				if r.Status != http.StatusCreated {
					b.Fatalf("status %d: %.500s", r.Status, r.Body)
				}
			}
			cpu.report()
		})
	}
}

// BenchmarkCreate100Devices52Interfaces creates 100 devices of a type with
// 52 interface templates in one bulk POST per iteration (nb#19321, the
// `inventory bench` scenario "create 100 devices (52 interfaces)").
func BenchmarkCreate100Devices52Interfaces(b *testing.B) {
	for _, kind := range servertest.Databases(b) {
		e := servertest.New(b, kind)
		w := largeWorld(b, e)
		dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"], "model": "AS-52", "slug": "as-52"}))
		interfaceTemplates(b, e, dt, 0, 52)
		n := 0
		b.Run(kind, func(b *testing.B) {
			cpu := newCPUMeter(b, e, kind)
			for i := 0; i < b.N; i++ {
				body := make([]any, 100)
				for j := range body {
					n++
					body[j] = map[string]any{"name": fmt.Sprintf("new-%d", n), "device_type": dt, "role": w["r"], "site": w["s"], "status": "active"}
				}
				cpu.start()
				r := e.Do("POST", devPath, body)
				cpu.stop()
				if r.Status != http.StatusCreated {
					b.Fatalf("status %d: %.500s", r.Status, r.Body)
				}
			}
			cpu.report()
		})
	}
}

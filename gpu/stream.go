package gpu

import (
	"fmt"
	"time"
)

// Stream is a CUDA stream: work submitted to one stream runs in order, work
// on different streams may overlap. Operations that take a *Stream submit
// their work to it and return at once; a nil *Stream means the default
// stream, and then the operation waits for its work to finish.
type Stream struct {
	d  *Device
	h  uintptr
	st *allocState
}

// NewStream creates a stream.
func (d *Device) NewStream() (*Stream, error) {
	s := &Stream{d: d, st: &allocState{}}
	err := d.do(func() error {
		return d.drv.errorf("cuStreamCreate", d.drv.cuStreamCreate(&s.h, 0))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Synchronize waits for the work submitted to the stream and returns the first
// asynchronous error.
func (s *Stream) Synchronize() error {
	if s == nil {
		return fmt.Errorf("gpu: Synchronize on a nil stream")
	}
	return s.d.onStream(s, func(h uintptr) error {
		return s.d.drv.errorf("cuStreamSynchronize", s.d.drv.cuStreamSynchronize(h))
	})
}

// Wait makes later work on s wait until e has completed (e may be recorded on
// another stream).
func (s *Stream) Wait(e *Event) error {
	if s == nil || e == nil {
		return fmt.Errorf("gpu: Wait needs a stream and an event")
	}
	if e.st.freed.Load() {
		return fmt.Errorf("gpu: Wait: event closed: %w", ErrClosed)
	}
	return s.d.onStream(s, func(h uintptr) error {
		return s.d.drv.errorf("cuStreamWaitEvent", s.d.drv.cuStreamWaitEvent(h, e.h, 0))
	})
}

// Close waits for the stream's work and destroys it. Closing twice is harmless.
func (s *Stream) Close() error {
	if s == nil || s.st.freed.Swap(true) {
		return nil
	}
	err := s.d.do(func() error {
		e1 := s.d.drv.errorf("cuStreamSynchronize", s.d.drv.cuStreamSynchronize(s.h))
		e2 := s.d.drv.errorf("cuStreamDestroy", s.d.drv.cuStreamDestroy(s.h))
		if e1 != nil {
			return e1
		}
		return e2
	})
	if err == ErrClosed {
		return nil
	}
	return err
}

// onStream runs f with the stream's handle inside a device call. For a
// nil stream it passes the default stream and then waits for it.
func (d *Device) onStream(s *Stream, f func(h uintptr) error) error {
	if s != nil && s.d != d {
		return fmt.Errorf("gpu: stream belongs to another device")
	}
	if s != nil && s.st.freed.Load() {
		return fmt.Errorf("gpu: stream closed: %w", ErrClosed)
	}
	return d.do(func() error {
		if s != nil {
			return f(s.h)
		}
		if err := f(0); err != nil {
			return err
		}
		return d.drv.errorf("cuStreamSynchronize", d.drv.cuStreamSynchronize(0))
	})
}

// Event marks a point in a stream's work, for ordering between streams and
// for timing on the device.
type Event struct {
	d  *Device
	h  uintptr
	st *allocState
}

// NewEvent creates an event that records timing.
func (d *Device) NewEvent() (*Event, error) {
	e := &Event{d: d, st: &allocState{}}
	err := d.do(func() error {
		return d.drv.errorf("cuEventCreate", d.drv.cuEventCreate(&e.h, 0))
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Record records the event on stream s (nil: the default stream) after the
// work submitted to it so far.
func (e *Event) Record(s *Stream) error {
	if e.st.freed.Load() {
		return fmt.Errorf("gpu: Record: event closed: %w", ErrClosed)
	}
	if s != nil && s.st.freed.Load() {
		return fmt.Errorf("gpu: Record: stream closed: %w", ErrClosed)
	}
	return e.d.do(func() error {
		var h uintptr
		if s != nil {
			h = s.h
		}
		return e.d.drv.errorf("cuEventRecord", e.d.drv.cuEventRecord(e.h, h))
	})
}

// Synchronize waits until the work before the event's last Record is done.
func (e *Event) Synchronize() error {
	if e.st.freed.Load() {
		return fmt.Errorf("gpu: Synchronize: event closed: %w", ErrClosed)
	}
	return e.d.do(func() error {
		return e.d.drv.errorf("cuEventSynchronize", e.d.drv.cuEventSynchronize(e.h))
	})
}

// Since returns the device time from start to e, both recorded and
// completed (resolution about half a microsecond).
func (e *Event) Since(start *Event) (time.Duration, error) {
	if e.st.freed.Load() || start.st.freed.Load() {
		return 0, fmt.Errorf("gpu: Since: event closed: %w", ErrClosed)
	}
	var ms float32
	err := e.d.do(func() error {
		return e.d.drv.errorf("cuEventElapsedTime", e.d.drv.cuEventElapsedTime(&ms, start.h, e.h))
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}

// Close destroys the event. Closing twice is harmless.
func (e *Event) Close() error {
	if e == nil || e.st.freed.Swap(true) {
		return nil
	}
	err := e.d.do(func() error {
		return e.d.drv.errorf("cuEventDestroy", e.d.drv.cuEventDestroy(e.h))
	})
	if err == ErrClosed {
		return nil
	}
	return err
}

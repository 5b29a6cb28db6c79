//! Invalidating a class's entries in RustPython's method cache without sweeping the cache.
//!
//! RustPython (pinned at 0.5.0) caches attribute lookups on classes in one global,
//! direct-mapped table of 4,096 entries keyed by (the class's version tag, the name); an entry
//! holds a *borrowed* pointer to the value in the class's namespace. Before a namespace
//! changes, `PyType::modified` clears the class's version tag (and its subclasses') and then
//! sweeps all 4,096 entries to null those of the old tag. The PVM calls it when a class's
//! attribute is set (`patches::guarded_type_setattro`, as every actor class gets `storage`)
//! and when the classes a call left are emptied (`engine::collect_garbage`): two to three
//! sweeps a call, 14% of a counter call's instructions (callgrind).
//!
//! The sweep is not what keeps lookups right or memory safe; clearing the tag is:
//! - a version tag is never given twice (`NEXT_TYPE_VERSION` only grows, and once exhausted
//!   classes get no tag and are looked up uncached), so no class's tag ever equals a cleared
//!   one again;
//! - a lookup reads an entry's value only after the entry's tag equals the class's current
//!   tag (`find_name_in_mro`), so an entry of a cleared tag is never read, only overwritten
//!   (or nulled by the collector's `type_cache_clear`), whatever its pointer points to now.
//!
//! [`invalidate`] therefore clears the tags as `modified` does and skips the sweep. What else
//! `modified` resets, the class's specialization cache (`__init__` and `__getitem__` for
//! specialized instructions), is private to RustPython; it stays empty while specialization is
//! off, as it is for all code the PVM runs (`engine::freeze_code`), and when it is not empty
//! `modified` itself runs.

use rustpython_vm::{Py, builtins::PyType};
use std::sync::atomic::Ordering;

/// What `PyType::modified` does for `ty`, without sweeping the method cache (see the module
/// comment): `ty`'s and its subclasses' cached lookups are invalid from now on.
pub fn invalidate(ty: &Py<PyType>) {
    // Whether a specialized instruction has cached a function of the class.
    let specialized = ty.heaptype_ext.as_ref().is_some_and(|ext| {
        let cache = &ext.specialization_cache;
        cache.init.deref().is_some() || cache.getitem.deref().is_some()
    });
    if specialized {
        ty.modified();
        return;
    }
    // As `modified`: a class whose tag is clear has subclasses with clear tags (a tag is
    // given to a class only after its bases have theirs).
    if ty.tp_version_tag.swap(0, Ordering::SeqCst) == 0 {
        return;
    }
    let subclasses: Vec<_> = ty
        .subclasses
        .read()
        .iter()
        .filter_map(|weak| weak.upgrade())
        .collect();
    for subclass in subclasses {
        if let Some(subclass) = subclass.downcast_ref::<PyType>() {
            invalidate(subclass);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustpython_vm::Interpreter;

    fn run(source: &str, vm: &rustpython_vm::VirtualMachine) -> rustpython_vm::scope::Scope {
        let scope = vm.new_scope_with_builtins();
        let code = vm
            .compile(source, rustpython_vm::compiler::Mode::Exec, "<test>".into())
            .expect("compiles");
        vm.run_code_obj(code, scope.clone()).expect("runs");
        scope
    }

    /// A lookup cached before the namespace changes behind `invalidate` finds the new value,
    /// on the class and through a subclass, and the replaced value is freed without harm.
    #[test]
    fn lookups_after_invalidate_see_the_namespace_as_it_is() {
        Interpreter::without_stdlib(Default::default()).enter(|vm| {
            let scope = run(
                "class Base:\n    x = [1]\nclass Sub(Base):\n    pass\n\
                 def read():\n    return (Base.x, Sub.x, Sub().x)\n",
                vm,
            );
            let read = scope.globals.get_item("read", vm).expect("read");
            let before = read.call((), vm).expect("reads");
            assert_eq!(
                before.repr(vm).expect("repr").to_string(),
                "([1], [1], [1])"
            );
            drop(before);
            let base = scope.globals.get_item("Base", vm).expect("Base");
            let base = base.downcast_ref::<PyType>().expect("a class");
            let sub = scope.globals.get_item("Sub", vm).expect("Sub");
            let sub = sub.downcast_ref::<PyType>().expect("a class");
            assert_ne!(base.tp_version_tag.load(Ordering::SeqCst), 0, "looked up");
            assert_ne!(sub.tp_version_tag.load(Ordering::SeqCst), 0, "looked up");
            invalidate(base);
            assert_eq!(base.tp_version_tag.load(Ordering::SeqCst), 0);
            assert_eq!(sub.tp_version_tag.load(Ordering::SeqCst), 0);
            let name = vm.ctx.intern_str("x");
            let replaced = base
                .attributes
                .write()
                .insert(name, vm.ctx.new_int(2).into());
            // The cached entries pointed into this list; it is freed here.
            drop(replaced);
            let after = read.call((), vm).expect("reads");
            assert_eq!(after.repr(vm).expect("repr").to_string(), "(2, 2, 2)");
        });
    }
}

import type { ReactNode } from 'react';
import type { Profile } from '../api/auth.js';
import { NavBar } from './NavBar.js';

/** The signed-in frame: navigation bar and the page. */
export function AppLayout({ user, children }: { user: Profile; children: ReactNode }) {
  return (
    <div className="app">
      <NavBar user={user} />
      <main className="app-main" id="main">
        {children}
      </main>
    </div>
  );
}

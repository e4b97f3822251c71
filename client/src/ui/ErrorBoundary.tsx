import { Component, type ErrorInfo, type ReactNode } from 'react';
import { i18next } from '../i18n/index.js';

/** The last line of defence: a rendering error shows a message and a reload button instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Rendering failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="not-found">
        <div className="card" role="alert">
          <h1>{i18next.t('errors.crashTitle')}</h1>
          <p>{i18next.t('errors.generic')}</p>
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            {i18next.t('errors.reload')}
          </button>
        </div>
      </main>
    );
  }
}

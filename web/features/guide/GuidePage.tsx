/**
 * The activation wizard: (1) licence, (2) cloud platform or
 * standalone, (3) administrator and platform name, then sign-in. It resumes at the right step
 * from the gateway's setup state, and leaves once an administrator exists.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Spin from '@arco-design/web-react/es/Spin';
import Steps from '@arco-design/web-react/es/Steps';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { LicensePayload, SetupState } from '../../../server/contract/license.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { AuthFrame } from '../auth/AuthFrame.tsx';
import { loadSetupState } from '../auth/sessionApi.ts';
import { findLicense } from '../license/licenseApi.ts';
import { AdminStep } from './AdminStep.tsx';
import { CloudStep } from './CloudStep.tsx';
import { cloudSkipStore, setupCodeStore } from './guideApi.ts';
import { GuideStep, leaveGuideFor, resumeStep } from './guideSteps.ts';
import { LicenseStep } from './LicenseStep.tsx';
import './GuidePage.css';

export function GuidePage(): JSX.Element {
  const { t } = useTranslation(['guide', 'license', 'auth', 'errors', 'common', 'http']);
  const [, navigate] = useLocation();
  const [state, setState] = useState<SetupState | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [step, setStep] = useState<GuideStep>(GuideStep.license);
  const [setupCode, setSetupCode] = useState(() => setupCodeStore.get());
  const [license, setLicense] = useState<LicensePayload | null>(null);

  const load = useCallback(() => {
    setLoadError(null);
    loadSetupState().then(
      (s) => {
        const away = leaveGuideFor(s);
        if (away) {
          navigate(away, { replace: true });
          return;
        }
        setState(s);
        setStep(resumeStep(s, cloudSkipStore.get()));
        if (s.licensed && !s.licenseExpired) {
          findLicense().then((info) => info.status === 'VALID' && setLicense(info.license), () => undefined);
        }
      },
      (err: unknown) => setLoadError(errorMessage(err)),
    );
  }, [navigate]);

  useEffect(load, [load]);

  const codeAccepted = (code: string): void => {
    setSetupCode(code);
    setupCodeStore.set(code);
  };
  const codeRejected = (): void => setSetupCode('');
  const needCode = !setupCode;

  const body = ((): JSX.Element => {
    if (loadError) {
      return (
        <Alert
          type="error"
          content={loadError}
          action={
            <Button size="mini" type="primary" onClick={load}>
              {t('retry')}
            </Button>
          }
        />
      );
    }
    if (!state) return <Spin className="ec-guide-loading" />;
    switch (step) {
      case GuideStep.license:
        return (
          <LicenseStep
            deviceSn={state.deviceSn}
            expired={state.licenseExpired}
            setupCode={setupCode}
            license={license}
            onCodeAccepted={codeAccepted}
            onCodeRejected={codeRejected}
            onActivated={(payload) => {
              setLicense(payload);
              setState({ ...state, licensed: true, licenseExpired: false });
            }}
            onNext={() => setStep(state.cloudConfigured || cloudSkipStore.get() ? GuideStep.admin : GuideStep.cloud)}
          />
        );
      case GuideStep.cloud:
        return (
          <CloudStep
            setupCode={setupCode}
            needCode={needCode}
            configured={state.cloudConfigured}
            onCodeAccepted={codeAccepted}
            onCodeRejected={codeRejected}
            onDone={() => {
              setState({ ...state, cloudConfigured: true });
              setStep(GuideStep.admin);
            }}
            onSkip={() => {
              cloudSkipStore.set();
              setStep(GuideStep.admin);
            }}
            onBack={() => setStep(GuideStep.license)}
          />
        );
      default:
        return (
          <AdminStep
            setupCode={setupCode}
            needCode={needCode}
            onCodeAccepted={codeAccepted}
            onCodeRejected={codeRejected}
            onBack={() => setStep(GuideStep.cloud)}
            onCreated={(username) => {
              setupCodeStore.clear();
              navigate(`${consolePaths.login}?username=${encodeURIComponent(username)}`, { replace: true });
            }}
          />
        );
    }
  })();

  return (
    <AuthFrame title={t('title')} subtitle={t('subtitle')} width={720} testId="guide-page">
      <Steps current={step + 1} size="small" className="ec-guide-steps" labelPlacement="vertical">
        <Steps.Step title={t('steps.license')} description={t('steps.licenseDesc')} />
        <Steps.Step title={t('steps.cloud')} description={t('steps.cloudDesc')} />
        <Steps.Step title={t('steps.complete')} description={t('steps.completeDesc')} />
      </Steps>
      {license && step !== GuideStep.license ? (
        <div className="ec-guide-alert" data-testid="guide-activated">
          <Alert
            type="success"
            content={t('activatedAs', { customer: license.customer || '-', expiresAt: formatDateTime(license.expiresAt) })}
          />
        </div>
      ) : null}
      {body}
    </AuthFrame>
  );
}

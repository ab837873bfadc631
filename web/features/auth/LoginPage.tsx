/**
 * Sign-in. "Remember me" never stores the password: it keeps the session
 * in localStorage for the refresh token's 7 days and remembers the account name. After sign-in the
 * user returns to the `redirect` path when it is a path of this console, else the workbench.
 */
import { lazy, Suspense, useEffect, useRef, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import type { RefInputType } from '@arco-design/web-react/es/Input/interface';
import IconLock from '@arco-design/web-react/icon/react-icon/IconLock';
import IconQuestionCircle from '@arco-design/web-react/icon/react-icon/IconQuestionCircle';
import IconUser from '@arco-design/web-react/icon/react-icon/IconUser';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import type { SetupState } from '../../../server/contract/license.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { StorageKey, storage } from '../../lib/storage.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { useLoginBanners } from '../operation/useLoginBanners.ts';
import { safeRedirect } from './redirect.ts';
import { loadSetupState, signIn } from './sessionApi.ts';
import './auth-pages.css';

// Banners' view loads only when there are banners (the login page's first load has a budget).
const LoginBanners = lazy(() => import('../operation/LoginBanners.tsx').then((m) => ({ default: m.LoginBanners })));

interface LoginValues {
  username: string;
  password: string;
  remember: boolean;
}

export function LoginPage(): JSX.Element {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<LoginValues>();
  const passwordInput = useRef<RefInputType>(null);
  const search = useSearch();
  const [, navigate] = useLocation();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [setup, setSetup] = useState<SetupState | null>(null);

  useEffect(() => {
    // Only for the activation notice: a failure here must not disturb signing in.
    loadSetupState().then(setSetup, () => undefined);
  }, []);

  const query = new URLSearchParams(search);
  const initialValues: LoginValues = {
    username: query.get('username') ?? storage.get<string>(StorageKey.LAST_USERNAME) ?? '',
    password: '',
    remember: storage.get<boolean>(StorageKey.REMEMBER_ME) ?? false,
  };

  const submit = async (values: LoginValues): Promise<void> => {
    setLoading(true);
    setError(null);
    const username = values.username.trim();
    try {
      await signIn(username, values.password, values.remember);
      if (values.remember) storage.set(StorageKey.LAST_USERNAME, username, { ttlMs: null });
      else storage.remove(StorageKey.LAST_USERNAME);
      navigate(safeRedirect(query.get('redirect')), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      form.setFieldValue('password', '');
      setLoading(false);
      // After the button's loading state ends, so the field is enabled again when it takes focus.
      setTimeout(() => passwordInput.current?.focus(), 0);
    }
  };

  const notice = setupNotice(setup);
  const banners = useLoginBanners();

  return (
    <AuthFrame testId="login-page" aside={banners.length > 0 ? <Suspense fallback={null}><LoginBanners banners={banners} /></Suspense> : undefined}>
      {notice ? (
        <Alert
          className="ec-auth-notice"
          type="warning"
          content={
            <span>
              {t(notice === 'guide' ? 'login.notActivated' : 'login.licenseExpired')}{' '}
              <Link href={notice === 'guide' ? consolePaths.guide : consolePaths.expiredLicense} data-testid="login-activation-link">
                {t(notice === 'guide' ? 'login.goGuide' : 'login.goUpload')}
              </Link>
            </span>
          }
        />
      ) : null}
      <Form<LoginValues>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onSubmit={(values) => void submit(values)}
        disabled={loading}
        autoComplete="on"
      >
        <Form.Item
          field="username"
          label={t('login.username')}
          rules={[
            { required: true, message: t('login.usernameRequired') },
            { validator: notBlank(t('login.usernameRequired')) },
          ]}
        >
          <Input
            prefix={<IconUser />}
            placeholder={t('login.usernamePlaceholder')}
            autoComplete="username"
            autoFocus={!initialValues.username}
            data-testid="login-username"
          />
        </Form.Item>
        <Form.Item
          field="password"
          label={t('login.password')}
          rules={[{ required: true, message: t('login.passwordRequired') }]}
        >
          <Input.Password
            ref={passwordInput}
            prefix={<IconLock />}
            placeholder={t('login.passwordPlaceholder')}
            autoComplete="current-password"
            autoFocus={!!initialValues.username}
            data-testid="login-password"
          />
        </Form.Item>
        <div className="ec-login-options">
          <span className="ec-login-remember">
            <Form.Item field="remember" triggerPropName="checked" noStyle>
              <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
            </Form.Item>
            {/* A CSS-only hint: Arco's Tooltip would bring its popup engine into the first page load. */}
            <span className="ec-login-help" tabIndex={0} aria-describedby="login-remember-tip" data-testid="login-remember-help">
              <IconQuestionCircle aria-hidden />
              <span className="ec-login-help__tip" role="tooltip" id="login-remember-tip">
                {t('login.rememberTip')}
              </span>
            </span>
          </span>
          <Link href={consolePaths.forgotPassword} data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
        </div>
        <FormError message={error} testId="login-error" />
        <Button type="primary" htmlType="submit" long size="large" loading={loading} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
    </AuthFrame>
  );
}

/** Which activation notice the login page shows: none, the wizard, or the licence upload. */
function setupNotice(state: SetupState | null): 'guide' | 'license' | null {
  if (!state) return null;
  if (!state.adminCreated) return 'guide';
  if (!state.licensed || state.licenseExpired) return 'license';
  return null;
}

/** Not only white space (the account is trimmed before it is sent). */
function notBlank(message: string) {
  return (value: string | undefined, callback: (error?: string) => void): void => {
    callback(!value || value.trim() ? undefined : message);
  };
}

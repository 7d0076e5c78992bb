export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  public: {
    Tables: {
      account_freezes: {
        Row: {
          freeze_id: string | null;
          frozen_at: string | null;
          frozen_by: string | null;
          unfreeze_at: string | null;
          unfreeze_delay_hours: number;
          unfreeze_email_id: string | null;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          freeze_id?: string | null;
          frozen_at?: string | null;
          frozen_by?: string | null;
          unfreeze_at?: string | null;
          unfreeze_delay_hours?: number;
          unfreeze_email_id?: string | null;
          user_id: string;
        };
        Update: {
          freeze_id?: string | null;
          frozen_at?: string | null;
          frozen_by?: string | null;
          unfreeze_at?: string | null;
          unfreeze_delay_hours?: number;
          unfreeze_email_id?: string | null;
          user_id?: string;
        };
        Relationships: [];
      };
      audit_log: {
        Row: {
          action: string;
          actor_id: string | null;
          at: string;
          details: NonNullable<Json>;
          id: string;
          target_id: string | null;
          target_table: string;
        };
        ComputedFields: never;
        Insert: {
          action: string;
          actor_id?: string | null;
          at?: string;
          details?: NonNullable<Json>;
          id?: string;
          target_id?: string | null;
          target_table: string;
        };
        Update: {
          action?: string;
          actor_id?: string | null;
          at?: string;
          details?: NonNullable<Json>;
          id?: string;
          target_id?: string | null;
          target_table?: string;
        };
        Relationships: [];
      };
      buy_requests: {
        Row: {
          amount: number;
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          expires_at: string;
          id: string;
          limit_price: number | null;
          recurring: boolean;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          amount: number;
          cryptocurrency: string;
          date?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          expires_at?: string;
          id?: string;
          limit_price?: number | null;
          recurring?: boolean;
          rejection_reason?: string | null;
          status?: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        Update: {
          amount?: number;
          cryptocurrency?: string;
          date?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          expires_at?: string;
          id?: string;
          limit_price?: number | null;
          recurring?: boolean;
          rejection_reason?: string | null;
          status?: Database['public']['Enums']['request_status'];
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      cost_basis_elections: {
        Row: {
          chosen_at: string;
          from_tax_year: number;
          method: Database['public']['Enums']['cost_basis_method'];
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          chosen_at?: string;
          from_tax_year: number;
          method: Database['public']['Enums']['cost_basis_method'];
          user_id: string;
        };
        Update: {
          chosen_at?: string;
          from_tax_year?: number;
          method?: Database['public']['Enums']['cost_basis_method'];
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'cost_basis_elections_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'cost_basis_elections_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'cost_basis_elections_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'cost_basis_elections_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      notifications: {
        Row: {
          body: string;
          created_at: string;
          id: string;
          kind: string;
          read_at: string | null;
          title: string;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          body: string;
          created_at?: string;
          id?: string;
          kind: string;
          read_at?: string | null;
          title: string;
          user_id: string;
        };
        Update: {
          body?: string;
          created_at?: string;
          id?: string;
          kind?: string;
          read_at?: string | null;
          title?: string;
          user_id?: string;
        };
        Relationships: [];
      };
      payout_destinations: {
        Row: {
          cancel_token: string;
          created_at: string;
          details_digest: string;
          details_key_version: number;
          encrypted_data: string;
          id: string;
          label: string;
          last4: string;
          removed_at: string | null;
          usable_at: string;
          user_id: string;
          withdraw_method: Database['public']['Enums']['withdraw_method'];
        };
        ComputedFields: never;
        Insert: {
          cancel_token?: string;
          created_at?: string;
          details_digest: string;
          details_key_version: number;
          encrypted_data: string;
          id: string;
          label: string;
          last4: string;
          removed_at?: string | null;
          usable_at: string;
          user_id: string;
          withdraw_method: Database['public']['Enums']['withdraw_method'];
        };
        Update: {
          cancel_token?: string;
          created_at?: string;
          details_digest?: string;
          details_key_version?: number;
          encrypted_data?: string;
          id?: string;
          label?: string;
          last4?: string;
          removed_at?: string | null;
          usable_at?: string;
          user_id?: string;
          withdraw_method?: Database['public']['Enums']['withdraw_method'];
        };
        Relationships: [
          {
            foreignKeyName: 'payout_destinations_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'payout_destinations_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'payout_destinations_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'payout_destinations_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      payout_protection: {
        Row: {
          allowlist_off_at: string | null;
          allowlist_on: boolean;
          previous_wait_hours: number | null;
          user_id: string;
          wait_changed_at: string | null;
          wait_hours: number;
        };
        ComputedFields: never;
        Insert: {
          allowlist_off_at?: string | null;
          allowlist_on?: boolean;
          previous_wait_hours?: number | null;
          user_id: string;
          wait_changed_at?: string | null;
          wait_hours?: number;
        };
        Update: {
          allowlist_off_at?: string | null;
          allowlist_on?: boolean;
          previous_wait_hours?: number | null;
          user_id?: string;
          wait_changed_at?: string | null;
          wait_hours?: number;
        };
        Relationships: [];
      };
      price_alerts: {
        Row: {
          armed: boolean;
          created_at: string;
          cryptocurrency: string;
          direction: string;
          id: string;
          last_fired_at: string | null;
          percent: number | null;
          price: number | null;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          armed?: boolean;
          created_at?: string;
          cryptocurrency: string;
          direction: string;
          id?: string;
          last_fired_at?: string | null;
          percent?: number | null;
          price?: number | null;
          user_id?: string;
        };
        Update: {
          armed?: boolean;
          created_at?: string;
          cryptocurrency?: string;
          direction?: string;
          id?: string;
          last_fired_at?: string | null;
          percent?: number | null;
          price?: number | null;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'price_alerts_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'price_alerts_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'price_alerts_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'price_alerts_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      price_snapshots: {
        Row: {
          captured_at: string;
          cryptocurrency: string;
          hourly: boolean;
          price: number;
        };
        ComputedFields: never;
        Insert: {
          captured_at: string;
          cryptocurrency: string;
          hourly: boolean;
          price: number;
        };
        Update: {
          captured_at?: string;
          cryptocurrency?: string;
          hourly?: boolean;
          price?: number;
        };
        Relationships: [];
      };
      profiles: {
        Row: {
          balance: number;
          closed_at: string | null;
          email: string | null;
          full_name: string | null;
          id: string;
          registration_date: string;
          role: Database['public']['Enums']['app_role'];
          wallet_code: string;
        };
        ComputedFields: never;
        Insert: {
          balance?: number;
          closed_at?: string | null;
          email?: string | null;
          full_name?: string | null;
          id: string;
          registration_date?: string;
          role?: Database['public']['Enums']['app_role'];
          wallet_code: string;
        };
        Update: {
          balance?: number;
          closed_at?: string | null;
          email?: string | null;
          full_name?: string | null;
          id?: string;
          registration_date?: string;
          role?: Database['public']['Enums']['app_role'];
          wallet_code?: string;
        };
        Relationships: [];
      };
      recurring_buy_runs: {
        Row: {
          buy_request_id: string | null;
          id: string;
          ran_at: string;
          recurring_buy_id: string;
          scheduled_for: string;
          skip_reason: string | null;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          buy_request_id?: string | null;
          id?: string;
          ran_at?: string;
          recurring_buy_id: string;
          scheduled_for: string;
          skip_reason?: string | null;
          user_id: string;
        };
        Update: {
          buy_request_id?: string | null;
          id?: string;
          ran_at?: string;
          recurring_buy_id?: string;
          scheduled_for?: string;
          skip_reason?: string | null;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'recurring_buy_runs_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests_with_fill';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests_with_user';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_recurring_buy_id_fkey';
            columns: ['recurring_buy_id'];
            isOneToOne: false;
            referencedRelation: 'recurring_buys';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buy_runs_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      recurring_buys: {
        Row: {
          amount: number;
          created_at: string;
          cryptocurrency: string;
          day_of_month: number | null;
          day_of_week: number | null;
          expiry_hours: number;
          frequency: string;
          id: string;
          next_run_at: string | null;
          price_ceiling: number | null;
          time_of_day: string;
          time_zone: string;
          tolerance_percent: number;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          amount: number;
          created_at?: string;
          cryptocurrency: string;
          day_of_month?: number | null;
          day_of_week?: number | null;
          expiry_hours?: number;
          frequency: string;
          id?: string;
          next_run_at?: string | null;
          price_ceiling?: number | null;
          time_of_day: string;
          time_zone: string;
          tolerance_percent?: number;
          user_id: string;
        };
        Update: {
          amount?: number;
          created_at?: string;
          cryptocurrency?: string;
          day_of_month?: number | null;
          day_of_week?: number | null;
          expiry_hours?: number;
          frequency?: string;
          id?: string;
          next_run_at?: string | null;
          price_ceiling?: number | null;
          time_of_day?: string;
          time_zone?: string;
          tolerance_percent?: number;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'recurring_buys_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buys_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buys_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'recurring_buys_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      second_approvals: {
        Row: {
          amount: number;
          confirmed_at: string | null;
          confirmed_by: string | null;
          proposed_at: string;
          proposed_by: string;
          target_id: string;
          target_table: string;
        };
        ComputedFields: never;
        Insert: {
          amount: number;
          confirmed_at?: string | null;
          confirmed_by?: string | null;
          proposed_at?: string;
          proposed_by: string;
          target_id: string;
          target_table: string;
        };
        Update: {
          amount?: number;
          confirmed_at?: string | null;
          confirmed_by?: string | null;
          proposed_at?: string;
          proposed_by?: string;
          target_id?: string;
          target_table?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'second_approvals_confirmed_by_fkey';
            columns: ['confirmed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_confirmed_by_fkey';
            columns: ['confirmed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_confirmed_by_fkey';
            columns: ['confirmed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_confirmed_by_fkey';
            columns: ['confirmed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      security_log: {
        Row: {
          detail: string;
          event: string;
          hash: string;
          ip: string | null;
          prev_hash: string;
          recorded_at: string;
          seq: number;
          user_agent: string | null;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          detail: string;
          event: string;
          hash: string;
          ip?: string | null;
          prev_hash: string;
          recorded_at: string;
          seq: number;
          user_agent?: string | null;
          user_id: string;
        };
        Update: {
          detail?: string;
          event?: string;
          hash?: string;
          ip?: string | null;
          prev_hash?: string;
          recorded_at?: string;
          seq?: number;
          user_agent?: string | null;
          user_id?: string;
        };
        Relationships: [];
      };
      sell_requests: {
        Row: {
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          expires_at: string;
          id: string;
          limit_price: number | null;
          quantity: number;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          cryptocurrency: string;
          date?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          expires_at?: string;
          id?: string;
          limit_price?: number | null;
          quantity: number;
          rejection_reason?: string | null;
          status?: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        Update: {
          cryptocurrency?: string;
          date?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          expires_at?: string;
          id?: string;
          limit_price?: number | null;
          quantity?: number;
          rejection_reason?: string | null;
          status?: Database['public']['Enums']['request_status'];
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      status_types: {
        Row: {
          created_at: string;
          id: string;
          name: string;
        };
        ComputedFields: never;
        Insert: {
          created_at?: string;
          id?: string;
          name: string;
        };
        Update: {
          created_at?: string;
          id?: string;
          name?: string;
        };
        Relationships: [];
      };
      tax_settings: {
        Row: {
          changed_at: string;
          time_zone: string;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          changed_at?: string;
          time_zone?: string;
          user_id: string;
        };
        Update: {
          changed_at?: string;
          time_zone?: string;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'tax_settings_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: true;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'tax_settings_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: true;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'tax_settings_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: true;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'tax_settings_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: true;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      transaction_limits: {
        Row: {
          id: boolean;
          long_term_after_days: number;
          max_amount: number;
          min_amount: number;
          second_admin_above: number;
          security_hold_hours: number;
          updated_at: string;
        };
        ComputedFields: never;
        Insert: {
          id?: boolean;
          long_term_after_days?: number;
          max_amount?: number;
          min_amount?: number;
          second_admin_above?: number;
          security_hold_hours?: number;
          updated_at?: string;
        };
        Update: {
          id?: boolean;
          long_term_after_days?: number;
          max_amount?: number;
          min_amount?: number;
          second_admin_above?: number;
          security_hold_hours?: number;
          updated_at?: string;
        };
        Relationships: [];
      };
      transactions: {
        Row: {
          amount: number;
          buy_request_id: string | null;
          cryptocurrency: string | null;
          date: string;
          id: string;
          price: number | null;
          quantity: number | null;
          sell_request_id: string | null;
          status: string;
          type: Database['public']['Enums']['transaction_type'];
          user_id: string;
          withdraw_request_id: string | null;
        };
        ComputedFields: never;
        Insert: {
          amount: number;
          buy_request_id?: string | null;
          cryptocurrency?: string | null;
          date?: string;
          id?: string;
          price?: number | null;
          quantity?: number | null;
          sell_request_id?: string | null;
          status?: string;
          type: Database['public']['Enums']['transaction_type'];
          user_id: string;
          withdraw_request_id?: string | null;
        };
        Update: {
          amount?: number;
          buy_request_id?: string | null;
          cryptocurrency?: string | null;
          date?: string;
          id?: string;
          price?: number | null;
          quantity?: number | null;
          sell_request_id?: string | null;
          status?: string;
          type?: Database['public']['Enums']['transaction_type'];
          user_id?: string;
          withdraw_request_id?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: 'transactions_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests_with_fill';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests_with_user';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_sell_request_id_fkey';
            columns: ['sell_request_id'];
            isOneToOne: false;
            referencedRelation: 'sell_requests';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_sell_request_id_fkey';
            columns: ['sell_request_id'];
            isOneToOne: false;
            referencedRelation: 'sell_requests_with_fill';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_sell_request_id_fkey';
            columns: ['sell_request_id'];
            isOneToOne: false;
            referencedRelation: 'sell_requests_with_user';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'transactions_withdraw_request_id_fkey';
            columns: ['withdraw_request_id'];
            isOneToOne: false;
            referencedRelation: 'withdraw_requests';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_withdraw_request_id_fkey';
            columns: ['withdraw_request_id'];
            isOneToOne: false;
            referencedRelation: 'withdraw_requests_with_user';
            referencedColumns: ['id'];
          },
        ];
      };
      watchlist: {
        Row: {
          coin_id: string;
          starred_at: string;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          coin_id: string;
          starred_at?: string;
          user_id?: string;
        };
        Update: {
          coin_id?: string;
          starred_at?: string;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'watchlist_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'watchlist_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'watchlist_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'watchlist_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      withdraw_requests: {
        Row: {
          amount: number;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          details_key_version: number | null;
          encrypted_data: string | null;
          id: string;
          payout_destination_id: string | null;
          rejection_reason: string | null;
          status: string;
          user_id: string;
          withdraw_method: Database['public']['Enums']['withdraw_method'];
        };
        ComputedFields: never;
        Insert: {
          amount: number;
          date?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          details_key_version?: number | null;
          encrypted_data?: string | null;
          id?: string;
          payout_destination_id?: string | null;
          rejection_reason?: string | null;
          status?: string;
          user_id: string;
          withdraw_method: Database['public']['Enums']['withdraw_method'];
        };
        Update: {
          amount?: number;
          date?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          details_key_version?: number | null;
          encrypted_data?: string | null;
          id?: string;
          payout_destination_id?: string | null;
          rejection_reason?: string | null;
          status?: string;
          user_id?: string;
          withdraw_method?: Database['public']['Enums']['withdraw_method'];
        };
        Relationships: [
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'withdraw_requests_payout_destination_id_fkey';
            columns: ['payout_destination_id'];
            isOneToOne: false;
            referencedRelation: 'payout_destinations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
    };
    Views: {
      audit_log_with_actor: {
        Row: {
          action: string;
          actor_email: string | null;
          actor_id: string | null;
          actor_name: string | null;
          at: string;
          details: NonNullable<Json>;
          id: string;
          target_id: string | null;
          target_table: string;
        };
        ComputedFields: never;
        Relationships: [];
      };
      buy_requests_with_fill: {
        Row: {
          amount: number;
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          expired: boolean | null;
          expires_at: string;
          fill_price: number | null;
          id: string;
          limit_price: number | null;
          quantity: number | null;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      buy_requests_with_user: {
        Row: {
          amount: number;
          available: number | null;
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          email: string | null;
          expired: boolean | null;
          expires_at: string;
          full_name: string | null;
          held_because: string | null;
          id: string;
          limit_price: number | null;
          price: number | null;
          proposed_by: string | null;
          recurring: boolean;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'buy_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      frozen_accounts: {
        Row: {
          email: string | null;
          frozen_at: string | null;
          frozen_by: string | null;
          full_name: string | null;
          id: string;
          proposed_at: string | null;
          proposed_by: string | null;
          proposed_by_name: string | null;
          unfreeze_at: string | null;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      holdings: {
        Row: {
          available: number | null;
          average_cost: number | null;
          bought: number | null;
          bought_for: number | null;
          cryptocurrency: string | null;
          quantity: number | null;
          reserved: number | null;
          sold: number | null;
          user_id: string;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      latest_prices: {
        Row: {
          captured_at: string;
          cryptocurrency: string;
          price: number;
        };
        ComputedFields: never;
        Relationships: [];
      };
      sell_requests_with_fill: {
        Row: {
          amount: number | null;
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          expired: boolean | null;
          expires_at: string;
          fill_price: number | null;
          id: string;
          limit_price: number | null;
          quantity: number;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      sell_requests_with_user: {
        Row: {
          amount: number | null;
          available: number | null;
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          email: string | null;
          expired: boolean | null;
          expires_at: string;
          full_name: string | null;
          held: number | null;
          held_because: string | null;
          id: string;
          limit_price: number | null;
          price: number | null;
          proposed_by: string | null;
          quantity: number;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'sell_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
      transactions_with_user: {
        Row: {
          amount: number;
          available: number | null;
          buy_request_id: string | null;
          cryptocurrency: string | null;
          date: string;
          email: string | null;
          full_name: string | null;
          held_because: string | null;
          id: string;
          proposed_by: string | null;
          settled: boolean | null;
          status: string;
          type: Database['public']['Enums']['transaction_type'];
          user_id: string;
          withdraw_request_id: string | null;
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'transactions_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests_with_fill';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_buy_request_id_fkey';
            columns: ['buy_request_id'];
            isOneToOne: false;
            referencedRelation: 'buy_requests_with_user';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'transactions_withdraw_request_id_fkey';
            columns: ['withdraw_request_id'];
            isOneToOne: false;
            referencedRelation: 'withdraw_requests';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'transactions_withdraw_request_id_fkey';
            columns: ['withdraw_request_id'];
            isOneToOne: false;
            referencedRelation: 'withdraw_requests_with_user';
            referencedColumns: ['id'];
          },
        ];
      };
      users_with_balance: {
        Row: {
          available: number | null;
          email: string | null;
          frozen: boolean | null;
          full_name: string | null;
          hold_until: string | null;
          id: string;
          registration_date: string;
          role: Database['public']['Enums']['app_role'];
          two_factor: boolean | null;
          withdrawals_locked: boolean | null;
        };
        ComputedFields: never;
        Relationships: [];
      };
      wallet_balances: {
        Row: {
          available: number | null;
          balance: number;
          reserved: number | null;
          user_id: string;
        };
        ComputedFields: never;
        Relationships: [];
      };
      withdraw_requests_with_user: {
        Row: {
          amount: number;
          available: number | null;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          email: string | null;
          full_name: string | null;
          held_because: string | null;
          id: string;
          proposed_by: string | null;
          rejection_reason: string | null;
          status: string;
          user_id: string;
          withdraw_method: Database['public']['Enums']['withdraw_method'];
        };
        ComputedFields: never;
        Relationships: [
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'second_approvals_proposed_by_fkey';
            columns: ['proposed_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_decided_by_fkey';
            columns: ['decided_by'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'frozen_accounts';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'users_with_balance';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'withdraw_requests_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'wallet_balances';
            referencedColumns: ['user_id'];
          },
        ];
      };
    };
    Functions: {
      admin_pending_counts: {
        Args: Record<PropertyKey, never>;
        Returns: {
          buy_requests: number;
          sell_requests: number;
          withdraw_requests: number;
        }[];
      };
      approve_buy_request: { Args: { idempotency_key?: string; request_id: string }; Returns: undefined };
      approve_sell_request: { Args: { idempotency_key?: string; request_id: string }; Returns: undefined };
      ask_to_unfreeze: { Args: { password: string }; Returns: string };
      cancel_payout_destination: { Args: { token: string }; Returns: string };
      cancel_request: {
        Args: { idempotency_key?: string; kind: string; request_id: string };
        Returns: undefined;
      };
      choose_cost_basis_method: {
        Args: { method: Database['public']['Enums']['cost_basis_method'] };
        Returns: number;
      };
      claim_security_emails: {
        Args: Record<PropertyKey, never>;
        Returns: {
          action_path: string;
          action_text: string;
          anti_phishing_phrase: string;
          body: string;
          id: string;
          not_me_token: string;
          recipient: string;
          subject: string;
        }[];
      };
      create_buy_request: {
        Args: {
          amount: number;
          cryptocurrency: string;
          expires_at?: string;
          idempotency_key?: string;
          limit_price?: number;
        };
        Returns: {
          amount: number;
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          expires_at: string;
          id: string;
          limit_price: number | null;
          recurring: boolean;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        SetofOptions: {
          from: '*';
          to: 'buy_requests';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      create_deposit: {
        Args: { amount: number; idempotency_key: string; user_id: string };
        Returns: {
          amount: number;
          buy_request_id: string | null;
          cryptocurrency: string | null;
          date: string;
          id: string;
          price: number | null;
          quantity: number | null;
          sell_request_id: string | null;
          status: string;
          type: Database['public']['Enums']['transaction_type'];
          user_id: string;
          withdraw_request_id: string | null;
        };
        SetofOptions: {
          from: '*';
          to: 'transactions';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      create_ledger_checkpoint: { Args: Record<PropertyKey, never>; Returns: Json };
      create_payout_destination: {
        Args: {
          destination_id: string;
          details_digest: string;
          details_key_version: number;
          encrypted_data: string;
          label: string;
          last4: string;
          session_id: string;
          user_id: string;
          withdraw_method: string;
        };
        Returns: string;
      };
      create_recurring_buy: {
        Args: {
          amount: number;
          cryptocurrency: string;
          day_of_month?: number;
          day_of_week?: number;
          expiry_hours?: number;
          frequency: string;
          idempotency_key?: string;
          price_ceiling?: number;
          time_of_day: string;
          time_zone: string;
          tolerance_percent?: number;
        };
        Returns: {
          amount: number;
          created_at: string;
          cryptocurrency: string;
          day_of_month: number | null;
          day_of_week: number | null;
          expiry_hours: number;
          frequency: string;
          id: string;
          next_run_at: string | null;
          price_ceiling: number | null;
          time_of_day: string;
          time_zone: string;
          tolerance_percent: number;
          user_id: string;
        };
        SetofOptions: {
          from: '*';
          to: 'recurring_buys';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      create_sell_request: {
        Args: {
          cryptocurrency: string;
          expires_at?: string;
          idempotency_key?: string;
          limit_price?: number;
          quantity: number;
        };
        Returns: {
          cryptocurrency: string;
          date: string;
          decided_at: string | null;
          decided_by: string | null;
          expires_at: string;
          id: string;
          limit_price: number | null;
          quantity: number;
          rejection_reason: string | null;
          status: Database['public']['Enums']['request_status'];
          user_id: string;
        };
        SetofOptions: {
          from: '*';
          to: 'sell_requests';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      create_withdraw_request: {
        Args: {
          amount: number;
          details_digest: string;
          details_key_version: number;
          encrypted_data: string;
          idempotency_key: string;
          payout_destination_id?: string;
          request_id: string;
          session_id: string;
          user_id: string;
          withdraw_method: string;
        };
        Returns: Database['public']['CompositeTypes']['created_withdraw_request'];
        SetofOptions: {
          from: '*';
          to: 'created_withdraw_request';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      delete_user: { Args: { user_id: string }; Returns: string };
      disposals: {
        Args: { sold_before: string; sold_from: string };
        Returns: Database['public']['CompositeTypes']['disposal'][];
        SetofOptions: {
          from: '*';
          to: 'disposal';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      end_security_hold: { Args: { user_id: string }; Returns: undefined };
      freeze_my_account: { Args: Record<PropertyKey, never>; Returns: undefined };
      latest_ledger_checkpoint: { Args: Record<PropertyKey, never>; Returns: Json };
      ledger_reconciliation: { Args: { from_checkpoint?: boolean }; Returns: Json };
      list_my_sessions: {
        Args: Record<PropertyKey, never>;
        Returns: {
          aal: string;
          id: string;
          ip: string;
          is_current: boolean;
          last_active_at: string;
          signed_in_at: string;
          user_agent: string;
        }[];
      };
      mark_security_email_sent: { Args: { email_id: string }; Returns: undefined };
      my_liability_proof: { Args: Record<PropertyKey, never>; Returns: Json };
      my_money_restrictions: {
        Args: Record<PropertyKey, never>;
        Returns: {
          buying_and_selling: string;
          hold_until: string;
          withdrawals: string;
        }[];
      };
      my_payout_rules: {
        Args: Record<PropertyKey, never>;
        Returns: {
          allowlist_in_force: boolean;
          wait_hours: number;
        }[];
      };
      my_restrictions: {
        Args: Record<PropertyKey, never>;
        Returns: {
          movement: string;
          refusal: string;
        }[];
      };
      open_lots: {
        Args: Record<PropertyKey, never>;
        Returns: {
          acquired_at: string;
          cost_basis: number;
          cryptocurrency: string;
          lot_id: string;
          quantity: number;
        }[];
      };
      portfolio_history: {
        Args: { range: string };
        Returns: {
          captured_at: string;
          value: number;
        }[];
      };
      price_history: {
        Args: { cryptocurrency: string; range: string };
        Returns: {
          captured_at: string;
          price: number;
        }[];
      };
      realised_gains: {
        Args: { tax_year: number };
        Returns: Database['public']['CompositeTypes']['disposal'][];
        SetofOptions: {
          from: '*';
          to: 'disposal';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      record_price_snapshots: { Args: { prices: Json }; Returns: number };
      reject_buy_request: {
        Args: { idempotency_key?: string; reason?: string; request_id: string };
        Returns: undefined;
      };
      reject_sell_request: {
        Args: { idempotency_key?: string; reason?: string; request_id: string };
        Returns: undefined;
      };
      release_security_email: { Args: { email_id: string }; Returns: undefined };
      remove_payout_destination: { Args: { destination_id: string }; Returns: undefined };
      remove_two_factor: { Args: { user_id: string }; Returns: number };
      report_not_me: { Args: { token: string }; Returns: undefined };
      run_recurring_buys: { Args: { batch_size?: number }; Returns: number };
      seal_ledger: { Args: Record<PropertyKey, never>; Returns: Json };
      set_anti_phishing_phrase: { Args: { phrase: string }; Returns: undefined };
      set_payout_allowlist: {
        Args: { allowlist_on: boolean };
        Returns: {
          allowlist_off_at: string | null;
          allowlist_on: boolean;
          previous_wait_hours: number | null;
          user_id: string;
          wait_changed_at: string | null;
          wait_hours: number;
        };
        SetofOptions: {
          from: '*';
          to: 'payout_protection';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      set_payout_wait_hours: {
        Args: { wait_hours: number };
        Returns: {
          allowlist_off_at: string | null;
          allowlist_on: boolean;
          previous_wait_hours: number | null;
          user_id: string;
          wait_changed_at: string | null;
          wait_hours: number;
        };
        SetofOptions: {
          from: '*';
          to: 'payout_protection';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      set_recurring_buy_paused: {
        Args: { paused: boolean; recurring_buy_id: string };
        Returns: {
          amount: number;
          created_at: string;
          cryptocurrency: string;
          day_of_month: number | null;
          day_of_week: number | null;
          expiry_hours: number;
          frequency: string;
          id: string;
          next_run_at: string | null;
          price_ceiling: number | null;
          time_of_day: string;
          time_zone: string;
          tolerance_percent: number;
          user_id: string;
        };
        SetofOptions: {
          from: '*';
          to: 'recurring_buys';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      set_tax_time_zone: { Args: { time_zone: string }; Returns: string };
      set_transaction_status: {
        Args: { idempotency_key?: string; new_status: string; transaction_id: string };
        Returns: undefined;
      };
      set_unfreeze_delay_hours: { Args: { unfreeze_delay_hours: number }; Returns: undefined };
      set_withdraw_request_status: {
        Args: { idempotency_key?: string; new_status: string; reason?: string; request_id: string };
        Returns: undefined;
      };
      unfreeze_by_admins: { Args: { user_id: string }; Returns: boolean };
      update_recurring_buy: {
        Args: {
          amount: number;
          cryptocurrency: string;
          day_of_month?: number;
          day_of_week?: number;
          expiry_hours?: number;
          frequency: string;
          price_ceiling?: number;
          recurring_buy_id: string;
          time_of_day: string;
          time_zone: string;
          tolerance_percent?: number;
        };
        Returns: {
          amount: number;
          created_at: string;
          cryptocurrency: string;
          day_of_month: number | null;
          day_of_week: number | null;
          expiry_hours: number;
          frequency: string;
          id: string;
          next_run_at: string | null;
          price_ceiling: number | null;
          time_of_day: string;
          time_zone: string;
          tolerance_percent: number;
          user_id: string;
        };
        SetofOptions: {
          from: '*';
          to: 'recurring_buys';
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      verify_security_log: {
        Args: { person_id?: string };
        Returns: {
          check: string;
          entry: number;
          expected: string;
          found: string;
          subject: string;
        }[];
      };
    };
    Enums: {
      app_role: 'user' | 'admin';
      cost_basis_method: 'fifo' | 'hifo' | 'average';
      request_status: 'pending' | 'approved' | 'rejected' | 'cancelled';
      transaction_type: 'deposit' | 'sell' | 'withdraw' | 'buy';
      withdraw_method: 'bank' | 'card' | 'wallet';
    };
    CompositeTypes: {
      created_withdraw_request: {
        id: string | null;
        user_id: string | null;
        amount: number | null;
        withdraw_method: Database['public']['Enums']['withdraw_method'] | null;
        status: string | null;
        date: string | null;
      };
      disposal: {
        sale_id: string | null;
        lot_id: string | null;
        cryptocurrency: string | null;
        acquired_at: string | null;
        sold_at: string | null;
        date_acquired: string | null;
        date_sold: string | null;
        quantity: number | null;
        proceeds: number | null;
        cost_basis: number | null;
        gain: number | null;
        term: string | null;
        method: Database['public']['Enums']['cost_basis_method'] | null;
      };
    };
  };
};

type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>;

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, 'public'>];

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    keyof (DefaultSchema['Tables'] & DefaultSchema['Views']) | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Views'])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Views'])[TableName] extends {
      Row: infer R;
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema['Tables'] & DefaultSchema['Views'])
    ? (DefaultSchema['Tables'] & DefaultSchema['Views'])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R;
      }
      ? R
      : never
    : never;

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema['Tables'] | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables']
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'][TableName] extends {
      Insert: infer I;
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables']
    ? DefaultSchema['Tables'][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I;
      }
      ? I
      : never
    : never;

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema['Tables'] | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables']
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'][TableName] extends {
      Update: infer U;
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables']
    ? DefaultSchema['Tables'][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U;
      }
      ? U
      : never
    : never;

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    keyof DefaultSchema['Enums'] | { schema: keyof DatabaseWithoutInternals },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions['schema']]['Enums']
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions['schema']]['Enums'][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema['Enums']
    ? DefaultSchema['Enums'][DefaultSchemaEnumNameOrOptions]
    : never;

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    keyof DefaultSchema['CompositeTypes'] | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions['schema']]['CompositeTypes']
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions['schema']]['CompositeTypes'][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema['CompositeTypes']
    ? DefaultSchema['CompositeTypes'][PublicCompositeTypeNameOrOptions]
    : never;

export const Constants = {
  public: {
    Enums: {
      app_role: ['user', 'admin'],
      cost_basis_method: ['fifo', 'hifo', 'average'],
      request_status: ['pending', 'approved', 'rejected', 'cancelled'],
      transaction_type: ['deposit', 'sell', 'withdraw', 'buy'],
      withdraw_method: ['bank', 'card', 'wallet'],
    },
  },
} as const;
